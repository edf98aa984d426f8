"use client";

import { useState } from "react";
import { THEME_COOKIE, THEMES, themeAttribute, type Theme } from "~/lib/theme";

const LABELS: Record<Theme, string> = { system: "System", light: "Light", dark: "Dark" };
const ONE_YEAR_SECONDS = 365 * 24 * 3600;

/** System, light or dark: applied at once on <html> and kept in a cookie for the next pages the server renders. */
export function ThemeSelect({ initial }: { initial: Theme }) {
  const [theme, setTheme] = useState(initial);
  return (
    <select
      aria-label="Colour theme"
      title="Colour theme"
      data-testid="theme-select"
      value={theme}
      onChange={(event) => {
        const next = event.target.value as Theme;
        setTheme(next);
        const attribute = themeAttribute(next);
        if (attribute) document.documentElement.dataset.theme = attribute;
        else delete document.documentElement.dataset.theme;
        document.cookie =
          next === "system" ? `${THEME_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax` : `${THEME_COOKIE}=${next}; Path=/; Max-Age=${ONE_YEAR_SECONDS}; SameSite=Lax`;
      }}
      className="h-8 rounded-md border border-slate-300 bg-white px-1.5 text-sm text-slate-700 focus-visible:outline-2 focus-visible:outline-indigo-600"
    >
      {THEMES.map((value) => (
        <option key={value} value={value}>
          {LABELS[value]}
        </option>
      ))}
    </select>
  );
}
