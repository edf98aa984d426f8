import "server-only";
import type { ElementContent } from "hast";
import { createHighlighterCoreSync, type ThemeRegistrationResolved } from "shiki/core";
import { createJavaScriptRegexEngine } from "shiki/engine/javascript";
import css from "shiki/langs/css.mjs";
import diff from "shiki/langs/diff.mjs";
import go from "shiki/langs/go.mjs";
import html from "shiki/langs/html.mjs";
import javascript from "shiki/langs/javascript.mjs";
import json from "shiki/langs/json.mjs";
import jsx from "shiki/langs/jsx.mjs";
import markdown from "shiki/langs/markdown.mjs";
import python from "shiki/langs/python.mjs";
import rust from "shiki/langs/rust.mjs";
import shellscript from "shiki/langs/shellscript.mjs";
import sql from "shiki/langs/sql.mjs";
import tsx from "shiki/langs/tsx.mjs";
import typescript from "shiki/langs/typescript.mjs";
import yaml from "shiki/langs/yaml.mjs";
import githubDark from "shiki/themes/github-dark-default.mjs";
import githubLight from "shiki/themes/github-light-default.mjs";

/**
 * Code blocks highlighted when a page is rendered (docs/public-blog.md, Reading), with no script:
 * Shiki's core with the JavaScript regex engine (no Wasm) and only the grammars below, created
 * once, synchronously, when the module loads, so rendering stays a plain function call.
 *
 * The pages' CSP allows one stylesheet by its hash and no `style` attribute, so tokens carry
 * classes, never Shiki's inline colours: each colour of the light theme is a class `hl-l{n}`,
 * each of the dark theme's `hl-d{n}`, both known before any code is seen (every colour a theme's
 * rules can give), and HIGHLIGHT_CSS, part of the one stylesheet, says what they are. A colour
 * that would read under 4.5:1 on its scheme's code background (WCAG AA) is moved towards the
 * theme's text colour until it does.
 */

const LANGUAGES = [css, diff, go, html, javascript, json, jsx, markdown, python, rust, shellscript, sql, tsx, typescript, yaml];

/** Code blocks' background and text in each colour scheme: GitHub's, whose themes these are. */
export const CODE_COLOURS = {
  light: { theme: githubLight, background: "#f6f8fa" },
  dark: { theme: githubDark, background: "#0d1117" },
} as const;
type Scheme = keyof typeof CODE_COLOURS;

/** WCAG AA for normal text. */
const MIN_CONTRAST = 4.5;

const highlighter = createHighlighterCoreSync({
  themes: [githubLight, githubDark],
  langs: LANGUAGES,
  engine: createJavaScriptRegexEngine(),
});
const loadedLanguages = new Set(highlighter.getLoadedLanguages());

/**
 * Bounds on the work one line of a post can ask for, against runaway patterns: a longer line is
 * left plain, and so is the rest of one that takes longer (Shiki's tokenizeTimeLimit; its default,
 * 0.5 s, was reached on a loaded machine by a grammar's first compilations, leaving lines plain in
 * pages that are then cached).
 */
const MAX_LINE_LENGTH = 2000;
const LINE_TIME_LIMIT_MS = 2000;

const warmLanguages = new Set<string>();
/** Common shapes of most languages here: declarations, calls, strings, numbers, comments, markup. */
const WARM_UP_SAMPLE = [
  'import { a } from "b"; // line comment',
  'const value: number = call(1, "two", `three ${x}`) + 2.5; /* block */',
  "def f(x): return x # comment",
  'fn main() { let s = String::from("x"); println!("{}", s); }',
  '<div class="a" id=\'b\'>text &amp; <span>more</span></div>',
  'SELECT a, count(*) FROM t WHERE b = \'c\' GROUP BY a;',
  "key: [1, 2] # note",
  "echo \"$HOME\" | grep -c x > out.txt",
  ".a > b:hover { color: #fff; margin: 0 1rem; }",
  "+ added\n- removed\n@@ -1 +1 @@",
].join("\n");
/**
 * A language's grammar compiles its regular expressions as they are first used, which takes most
 * of its first highlighting: a language's first use tokenizes a sample of ours first, without the
 * time limit, so that a post's lines rarely pay for it.
 */
function warmUp(language: string): void {
  if (warmLanguages.has(language)) return;
  highlighter.codeToTokensBase(WARM_UP_SAMPLE, { lang: language, theme: githubLight.name, tokenizeTimeLimit: 0 });
  warmLanguages.add(language);
}

/** `#rrggbb` as its three channels, 0–255. */
const channels = (hex: string) => [1, 3, 5].map((start) => parseInt(hex.slice(start, start + 2), 16));
const toHex = (rgb: number[]) => `#${rgb.map((value) => Math.round(value).toString(16).padStart(2, "0")).join("")}`;

/** WCAG 2's relative luminance. */
function luminance(hex: string): number {
  const [r, g, b] = channels(hex).map((value) => {
    const channel = value / 255;
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

/** WCAG 2's contrast ratio of two colours. */
export function contrastRatio(a: string, b: string): number {
  const [lighter, darker] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (lighter! + 0.05) / (darker! + 0.05);
}

/** `colour` moved in tenths towards `text` until it reads on `background` (text itself does). */
function readable(colour: string, text: string, background: string): string {
  const [from, to] = [channels(colour), channels(text)];
  for (let step = 0; step <= 10; step++) {
    const mixed = toHex(from.map((value, index) => value + ((to[index]! - value) * step) / 10));
    if (contrastRatio(mixed, background) >= MIN_CONTRAST) return mixed;
  }
  return text;
}

/** A scheme's theme as Shiki resolved it (its text colour `fg` included). */
const resolvedTheme = (scheme: Scheme): ThemeRegistrationResolved => highlighter.getTheme(CODE_COLOURS[scheme].theme);

/** A theme's palette: each colour its rules can give a token (opaque `#rrggbb`, lower case), with the colour it is shown in. */
function palette(scheme: Scheme): Map<string, string> {
  const { background } = CODE_COLOURS[scheme];
  const theme = resolvedTheme(scheme);
  const text = theme.fg.toLowerCase();
  const colours = [text, ...theme.settings.flatMap((rule) => rule.settings.foreground ?? [])].map((colour) => colour.toLowerCase()).filter((colour) => /^#[0-9a-f]{6}$/.test(colour));
  return new Map(colours.map((colour) => [colour, readable(colour, text, background)]));
}

const PALETTES = { light: palette("light"), dark: palette("dark") };
/** Each palette colour's class number, by the colour tokens come with; none for the theme's text colour, the block's own. */
const classNumbers = (scheme: Scheme) => {
  const text = resolvedTheme(scheme).fg.toLowerCase();
  return new Map([...PALETTES[scheme].keys()].filter((colour) => colour !== text).map((colour, index) => [colour, index]));
};
const CLASS_NUMBERS = { light: classNumbers("light"), dark: classNumbers("dark") };

/** Shiki's font style bits. */
const ITALIC = 1;
const BOLD = 2;

/** The classes of a token of these colours and font style (Shiki's bits). */
function tokenClasses(light: string | undefined, dark: string | undefined, fontStyle: number | undefined): string[] {
  const lightNumber = light === undefined ? undefined : CLASS_NUMBERS.light.get(light.toLowerCase());
  const darkNumber = dark === undefined ? undefined : CLASS_NUMBERS.dark.get(dark.toLowerCase());
  return [
    ...(lightNumber === undefined ? [] : [`hl-l${lightNumber}`]),
    ...(darkNumber === undefined ? [] : [`hl-d${darkNumber}`]),
    ...((fontStyle ?? 0) & ITALIC ? ["hl-i"] : []),
    ...((fontStyle ?? 0) & BOLD ? ["hl-b"] : []),
  ];
}

/**
 * `code` in `language` as the children of its <code>: a span per run of tokens of the same
 * classes, the text as text (escaped when written), lines joined by newlines. Null for a language
 * not loaded here (or none): the block stays plain.
 */
export function highlightCode(code: string, language: string | undefined): ElementContent[] | null {
  const name = language?.toLowerCase();
  if (!name || !loadedLanguages.has(name)) return null;
  warmUp(name);
  const lines = highlighter.codeToTokensWithThemes(code, { lang: name, themes: { light: githubLight.name, dark: githubDark.name },
    tokenizeMaxLineLength: MAX_LINE_LENGTH,
    tokenizeTimeLimit: LINE_TIME_LIMIT_MS,
  });
  const children: ElementContent[] = [];
  let run: { classes: string; text: string } | null = null;
  const flush = () => {
    if (!run) return;
    const { classes, text } = run;
    children.push(classes ? { type: "element", tagName: "span", properties: { className: classes.split(" ") }, children: [{ type: "text", value: text }] } : { type: "text", value: text });
    run = null;
  };
  lines.forEach((line, index) => {
    if (index > 0) {
      flush();
      children.push({ type: "text", value: "\n" });
    }
    for (const token of line) {
      const { light, dark } = token.variants;
      // Spaces take no colour: they join the run before them.
      const classes = token.content.trim() === "" && run ? run.classes : tokenClasses(light?.color, dark?.color, light?.fontStyle).join(" ");
      if (run && run.classes === classes) run.text += token.content;
      else {
        flush();
        run = { classes, text: token.content };
      }
    }
  });
  flush();
  return children;
}

/** A scheme's rules: its code blocks' colours (`--pre-bg`, `--pre-fg`) and each of its token classes'. */
const schemeRules = (scheme: Scheme, prefix: string) => [
  `:root{--pre-bg:${CODE_COLOURS[scheme].background};--pre-fg:${PALETTES[scheme].get(resolvedTheme(scheme).fg.toLowerCase())}}`,
  ...[...CLASS_NUMBERS[scheme]].map(([colour, number]) => `.${prefix}${number}{color:${PALETTES[scheme].get(colour)}}`),
];

/**
 * The code blocks' rules of the public pages' stylesheet (./reader-style.ts): each scheme's
 * background and text, and what each token class is in it. The dark rules follow the light ones,
 * so with both classes on a token, the scheme's own wins.
 */
export const HIGHLIGHT_CSS = [
  ...schemeRules("light", "hl-l"),
  ".hl-i{font-style:italic}.hl-b{font-weight:600}",
  "@media (prefers-color-scheme:dark){",
  ...schemeRules("dark", "hl-d"),
  "}",
].join("\n");

/** Every colour a token can be shown in, each scheme's (for tests of its contrast). */
export const highlightColours = (scheme: Scheme) => ({ background: CODE_COLOURS[scheme].background, colours: [...new Set(PALETTES[scheme].values())] });
