import "server-only";
/**
 * Characters XML 1.0 cannot carry at all, not even as a character reference: C0 controls but tab,
 * newline and carriage return, unpaired surrogates, U+FFFE and U+FFFF. One in a feed or a sitemap
 * makes the whole document unreadable to a parser, so they are dropped from what is written
 * (docs/security.md, Control characters); the rest of the text stays as written.
 */
const NOT_XML_CHARACTER = /[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu;

export const withXmlCharactersOnly = (xml: string) => xml.replace(NOT_XML_CHARACTER, "");
