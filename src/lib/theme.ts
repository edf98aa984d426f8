/**
 * The owner's colour theme, kept in a cookie so the server renders the page in it (no flash of
 * the other theme, and no inline script, which the pages' CSP would have to allow). Without the
 * cookie the pages follow the system's preference (prefers-color-scheme), through CSS alone.
 */
export const THEME_COOKIE = "theme";
export const THEMES = ["system", "light", "dark"] as const;
export type Theme = (typeof THEMES)[number];

export function parseTheme(value: string | undefined): Theme {
  return value === "light" || value === "dark" ? value : "system";
}

/** The value of <html data-theme>: none when the system decides. */
export function themeAttribute(theme: Theme): "light" | "dark" | undefined {
  return theme === "system" ? undefined : theme;
}
