import "server-only";
import { createHash } from "node:crypto";
import { CARD_GAP_REM, CARD_GRID_MIN_WIDTH_REM, READER_GUTTER_REM, READER_PAGE_MAX_WIDTH_REM } from "~/shared/responsive-images";

/**
 * The public pages' stylesheet (docs/public-blog.md, Reading): inlined in each page, so a
 * page is one request and renders at once, and allowed by its hash in the pages' CSP (no nonce,
 * so pages can be cached). A readable measure (about 70 characters), system fonts, images that
 * shrink to the column, code and tables that scroll sideways rather than widen the page, a dark
 * scheme following the system's, and print styles (no navigation, link targets written out). The
 * column's width, and the cards' covers', are those images' `sizes` describe
 * (src/shared/responsive-images.ts); images with their width and height keep their proportions as
 * they shrink, and covers on the home are cropped to one shape so the cards line up.
 * Colours meet WCAG AA contrast (4.5:1) in both schemes (e2e/accessibility.spec.ts); a
 * publication's accent replaces `--link` (./accent.ts).
 */
export const READER_CSS = `
:root{color-scheme:light dark;--bg:#fff;--fg:#1e293b;--muted:#475569;--line:#e2e8f0;--link:#4338ca;--code-bg:#f1f5f9;--pre-bg:#0f172a;--pre-fg:#e2e8f0;--chip:#f1f5f9;--note:#fffbeb;--note-line:#fcd34d}
@media (prefers-color-scheme:dark){:root{--bg:#0b1120;--fg:#e2e8f0;--muted:#a3b1c6;--line:#334155;--link:#a5b4fc;--code-bg:#1e293b;--pre-bg:#020617;--pre-fg:#e2e8f0;--chip:#1e293b;--note:#422006;--note-line:#a16207}}
*,::before,::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%;text-size-adjust:100%}
body{margin:0;background:var(--bg);color:var(--fg);font:1.0625rem/1.7 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;overflow-wrap:anywhere}
.page{max-width:${READER_PAGE_MAX_WIDTH_REM}rem;margin:0 auto;padding:1.5rem ${READER_GUTTER_REM}rem 4rem}
.skip{position:absolute;left:-100vw;top:.5rem;padding:.5rem .75rem;background:var(--bg);color:var(--link);border-radius:.25rem}
.skip:focus{left:.5rem}
.masthead{display:flex;flex-wrap:wrap;align-items:center;justify-content:space-between;gap:.5rem 1.5rem;padding-bottom:1rem;border-bottom:1px solid var(--line)}
.brand{display:inline-flex;align-items:center;gap:.625rem;font-size:1.125rem;font-weight:700;line-height:1.3;color:var(--fg);text-decoration:none;min-height:24px}
.brand img{display:block;height:2.5rem;width:auto;max-width:12.5rem;object-fit:contain}
.brand:hover span{text-decoration:underline}
.masthead ul{display:flex;flex-wrap:wrap;gap:0 1.25rem;list-style:none;margin:0;padding:0;font-size:.9375rem}
.masthead nav a{display:inline-block;padding:.25rem 0;color:var(--fg);font-weight:500;text-decoration:none}
.masthead nav a:hover{color:var(--link);text-decoration:underline}
a{color:var(--link)}
a:focus-visible{outline:2px solid var(--link);outline-offset:2px;border-radius:2px}
main{margin-top:2.5rem}
h1{font-size:clamp(1.75rem,5vw,2.375rem);line-height:1.2;letter-spacing:-.01em;margin:0}
.lede{font-size:1.1875rem;color:var(--muted);margin:.75rem 0 0}
.byline,.meta{color:var(--muted);font-size:.9375rem;margin:.75rem 0 0}
.byline a{color:inherit;font-weight:600}
.tags{display:flex;flex-wrap:wrap;gap:.5rem;list-style:none;margin:.75rem 0 0;padding:0}
.tags a{display:inline-block;padding:.125rem .625rem;border-radius:999px;background:var(--chip);color:var(--fg);font-size:.8125rem;font-weight:500;text-decoration:none;line-height:1.75}
.tags a:hover{text-decoration:underline}
header.post{border-bottom:1px solid var(--line);padding-bottom:1.5rem;margin-bottom:2rem}
.cover{display:block;margin:0 0 1.5rem}
.cover img{display:block;max-width:100%;height:auto;border-radius:.5rem}
.intro{margin-bottom:2.5rem}
.eyebrow{margin:0 0 .25rem;font-size:.8125rem;font-weight:600;letter-spacing:.08em;text-transform:uppercase;color:var(--muted)}
.empty{margin:0;padding:3rem 1rem;border:1px dashed var(--line);border-radius:.5rem;text-align:center;color:var(--muted);font-size:1.125rem}
.featured{padding-bottom:2.5rem;margin-bottom:2.5rem;border-bottom:1px solid var(--line)}
.featured .cover{margin-bottom:1.25rem}
.featured .cover img{width:100%;aspect-ratio:16/9;object-fit:cover}
.featured h2{font-size:clamp(1.5rem,4vw,2rem);line-height:1.2;letter-spacing:-.01em;margin:0}
.featured .excerpt{font-size:1.125rem}
.cards{display:grid;gap:2.5rem ${CARD_GAP_REM}rem;list-style:none;margin:0;padding:0}
@media (min-width:${CARD_GRID_MIN_WIDTH_REM}rem){.cards{grid-template-columns:1fr 1fr}}
.card-cover{display:block;margin:0 0 .875rem}
.card-cover img{display:block;width:100%;height:auto;aspect-ratio:16/9;object-fit:cover;border-radius:.375rem}
.card h2{font-size:1.25rem;line-height:1.35;margin:0}
.featured h2 a,.card h2 a{color:var(--fg);text-decoration:none}
.featured h2 a:hover,.card h2 a:hover{color:var(--link);text-decoration:underline}
.excerpt{margin:.5rem 0 0}
.pages{display:flex;justify-content:space-between;align-items:center;margin-top:2.5rem;font-size:.9375rem}
.pages a{font-weight:600;display:inline-block;min-height:24px}
.note{border:1px solid var(--note-line);background:var(--note);border-radius:.375rem;padding:.75rem 1rem;font-size:.9375rem;margin:0 0 1.5rem}
.site-footer{margin-top:4rem;padding-top:1.5rem;border-top:1px solid var(--line);color:var(--muted);font-size:.9375rem}
.site-footer .markdown a{color:var(--link)}
.links{display:flex;flex-wrap:wrap;gap:.25rem 1.25rem;list-style:none;margin:1rem 0 0;padding:0}
.links:first-child{margin-top:0}
.links a{display:inline-block;min-height:24px}
.markdown>*{margin:1rem 0 0}
.markdown>:first-child{margin-top:0}
.markdown h1{font-size:1.75rem}
.markdown h2{font-size:1.5rem;line-height:1.3;margin-top:2.25rem}
.markdown h3{font-size:1.25rem;line-height:1.35;margin-top:1.75rem}
.markdown ul,.markdown ol{padding-left:1.5rem}
.markdown li+li{margin-top:.25rem}
.markdown blockquote{margin-left:0;padding-left:1rem;border-left:4px solid var(--line);color:var(--muted);font-style:italic}
.markdown code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.875em;background:var(--code-bg);border-radius:.25rem;padding:.125rem .25rem}
.markdown pre{overflow-x:auto;background:var(--pre-bg);color:var(--pre-fg);border-radius:.375rem;padding:1rem;font-size:.875rem;line-height:1.6;tab-size:2}
.markdown pre code{background:none;padding:0;font-size:inherit;color:inherit}
.markdown img{max-width:100%;height:auto}
.markdown hr{border:0;border-top:1px solid var(--line)}
.markdown table{display:block;overflow-x:auto;border-collapse:collapse;font-size:.9375rem}
.markdown th,.markdown td{border:1px solid var(--line);padding:.375rem .75rem}
.markdown del{color:var(--muted)}
.markdown li.task-list-item{list-style:none}
.markdown .footnotes{border-top:1px solid var(--line);padding-top:1rem;font-size:.9375rem;color:var(--muted)}
@media print{
:root{--bg:#fff;--fg:#000;--muted:#333;--link:#000;--pre-bg:#fff;--pre-fg:#000;--code-bg:#fff}
body{font-size:11pt}
.page{max-width:none;padding:0}
.skip,.masthead nav,.pages,.links,.tags{display:none}
main{margin-top:0}
.markdown pre{white-space:pre-wrap;border:1px solid #999}
.markdown a[href^="http"]::after{content:" (" attr(href) ")";font-size:.85em;overflow-wrap:anywhere}
h2,h3{break-after:avoid}
pre,blockquote,img,table{break-inside:avoid}
}
`.trim();

/** The CSP source that allows exactly this stylesheet inline. */
export const READER_CSS_SOURCE = `'sha256-${createHash("sha256").update(READER_CSS).digest("base64")}'`;
