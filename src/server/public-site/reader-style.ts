import "server-only";
import { createHash } from "node:crypto";
import { HIGHLIGHT_CSS } from "./code-highlighting";
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
 * publication's accent replaces `--link` (./accent.ts); code blocks' follow the scheme too, their
 * tokens' classes and colours from ./code-highlighting.ts. A heading's link to itself shows on
 * hover and focus, and always where nothing hovers.
 */
export const READER_CSS = `
:root{color-scheme:light dark;--bg:#fff;--fg:#1e293b;--muted:#475569;--line:#e2e8f0;--link:#4338ca;--code-bg:#f1f5f9;--chip:#f1f5f9;--note:#fffbeb;--note-line:#fcd34d}
@media (prefers-color-scheme:dark){:root{--bg:#0b1120;--fg:#e2e8f0;--muted:#a3b1c6;--line:#334155;--link:#a5b4fc;--code-bg:#1e293b;--chip:#1e293b;--note:#422006;--note-line:#a16207}}
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
.search{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem;margin-top:1rem;font-size:.9375rem}
.search label{color:var(--muted)}
.search input{flex:1 1 8rem;min-width:0;min-height:2.25rem;padding:.25rem .5rem;font:inherit;color:var(--fg);background:var(--bg);border:1px solid var(--muted);border-radius:.375rem}
.search button{min-height:2.25rem;padding:.25rem .875rem;font:inherit;font-weight:600;color:#fff;background:#4338ca;border:0;border-radius:.375rem;cursor:pointer}
.search input:focus-visible,.search button:focus-visible{outline:2px solid var(--link);outline-offset:2px}
.masthead .search{flex:1 1 100%;margin:0}
mark{background:#fde68a;color:#1e293b;border-radius:2px}
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
.markdown h2,.markdown h3,.markdown h4{scroll-margin-top:1rem}
.heading-anchor{display:inline-block;min-width:24px;margin-left:.25rem;color:var(--muted);font-weight:400;text-decoration:none;text-align:center;opacity:0}
.markdown :is(h2,h3,h4):hover .heading-anchor,.heading-anchor:focus-visible{opacity:1}
@media (hover:none){.heading-anchor{opacity:1}}
.markdown pre{overflow-x:auto;background:var(--pre-bg);color:var(--pre-fg);border:1px solid var(--line);border-radius:.375rem;padding:1rem;font-size:.875rem;line-height:1.6;tab-size:2}
.markdown pre code{background:none;padding:0;font-size:inherit;color:inherit}
.markdown img{max-width:100%;height:auto}
.markdown hr{border:0;border-top:1px solid var(--line)}
.markdown table{display:block;overflow-x:auto;border-collapse:collapse;font-size:.9375rem}
.markdown th,.markdown td{border:1px solid var(--line);padding:.375rem .75rem}
.markdown del{color:var(--muted)}
.markdown li.task-list-item{list-style:none}
${HIGHLIGHT_CSS}
.markdown .footnotes{border-top:1px solid var(--line);padding-top:1rem;font-size:.9375rem;color:var(--muted)}
.post-end{margin-top:3rem;border-top:1px solid var(--line);padding-top:2rem;display:grid;gap:2rem}
.post-end h2{font-size:1.25rem;line-height:1.35;margin:0 0 .75rem}
.author-box{display:flex;gap:1rem;align-items:center}
.avatar{flex:none;display:grid;place-items:center;width:3.5rem;height:3.5rem;border-radius:50%;background:var(--chip);color:var(--fg);font-weight:700;object-fit:cover}
.author-name{margin:0;font-weight:600}
.author-name a{color:var(--fg)}
.author-box .meta{margin:.125rem 0 0}
.bio{margin:.375rem 0 0;white-space:pre-line}
.author-list{display:grid;gap:1.25rem;list-style:none;margin:0;padding:0}
.author-list .author-box{align-items:flex-start}
.author-profile{display:flex;gap:1.25rem;align-items:center}
.author-profile .avatar{width:6rem;height:6rem;font-size:1.75rem}
.author-profile .bio{margin-top:.5rem}
.section-title{font-size:1.25rem;line-height:1.35;margin:0 0 1.25rem}
.post-nav{display:grid;grid-template-columns:repeat(auto-fill,minmax(14rem,1fr));gap:1rem}
.post-nav a{display:block;padding:.875rem 1rem;border:1px solid var(--line);border-radius:.5rem;text-decoration:none;color:var(--fg)}
.post-nav a:hover .post-nav-title{text-decoration:underline}
.post-nav-next{text-align:right;grid-column:-2}
.post-nav-label{display:block;font-size:.8125rem;color:var(--muted)}
.post-nav-title{display:block;font-weight:600;color:var(--link)}
.related ul{list-style:none;margin:0;padding:0;border-top:1px solid var(--line)}
.related li{display:flex;flex-wrap:wrap;justify-content:space-between;align-items:baseline;gap:0 1rem;padding:.625rem 0;border-bottom:1px solid var(--line)}
.related a{font-weight:600;display:inline-block;min-height:24px}
.related time{color:var(--muted);font-size:.875rem}
.subscribe{background:var(--chip);border-radius:.5rem;padding:1.25rem}
.subscribe .meta{margin:0 0 1rem}
.subscribe label{display:block;font-weight:600;font-size:.9375rem;margin-bottom:.375rem}
.subscribe-row{display:flex;flex-wrap:wrap;gap:.5rem}
.subscribe input{flex:1 1 14rem;min-height:2.75rem;padding:.5rem .75rem;font:inherit;color:var(--fg);background:var(--bg);border:1px solid var(--muted);border-radius:.375rem}
.subscribe button{min-height:2.75rem;padding:.5rem 1.25rem;font:inherit;font-weight:600;color:#fff;background:#4338ca;border:0;border-radius:.375rem;cursor:pointer}
.subscribe button:hover{background:#3730a3}
.subscribe input:focus-visible,.subscribe button:focus-visible{outline:2px solid var(--link);outline-offset:2px}
main>.subscribe{margin-top:3rem}
@media print{
:root{--bg:#fff;--fg:#000;--muted:#333;--link:#000;--pre-bg:#fff;--pre-fg:#000;--code-bg:#fff}
body{font-size:11pt}
.page{max-width:none;padding:0}
.skip,.masthead nav,.search,.pages,.links,.tags,.post-nav,.subscribe{display:none}
main{margin-top:0}
.markdown pre{white-space:pre-wrap;border:1px solid #999}
.heading-anchor{display:none}
.markdown a[href^="http"]::after{content:" (" attr(href) ")";font-size:.85em;overflow-wrap:anywhere}
h2,h3{break-after:avoid}
pre,blockquote,img,table{break-inside:avoid}
}
`.trim();

/** The CSP source that allows exactly this stylesheet inline. */
export const READER_CSS_SOURCE = `'sha256-${createHash("sha256").update(READER_CSS).digest("base64")}'`;
