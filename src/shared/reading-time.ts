/** An adult's silent reading speed for non-fiction, in words a minute (Brysbaert, 2019: 238; rounded down for headings, code and images). */
export const WORDS_PER_MINUTE = 230;

const segmenter = new Intl.Segmenter(undefined, { granularity: "word" });

/**
 * The words a reader reads in a Markdown text: its links' and images' addresses left out, and words
 * told apart as the language has them (each Chinese or Japanese word counts, not only spaces).
 */
export function countWords(markdown: string): number {
  const readable = markdown.replace(/(!?\[[^\]]*\])\([^)]*\)/g, "$1").replace(/<https?:[^>]*>/g, "");
  let words = 0;
  for (const segment of segmenter.segment(readable)) if (segment.isWordLike) words++;
  return words;
}

/** Whole minutes to read `words`: at least one for any text, none for no text. */
export const readingMinutes = (words: number): number => Math.ceil(words / WORDS_PER_MINUTE);
