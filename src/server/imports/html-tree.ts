import "server-only";
import type { Element, ElementContent, Root, RootContent } from "hast";
import { toHtml } from "hast-util-to-html";
import { toString } from "hast-util-to-string";
import rehypeParse from "rehype-parse";
import { unified } from "unified";

/**
 * A post's HTML as a tree, for the readers that turn a platform's markup (Ghost's cards, Substack's
 * widgets) into plain HTML before html-to-markdown.ts (docs/migrating.md, What maps to what).
 */

export const parseHtml = (html: string): Root => unified().use(rehypeParse, { fragment: true }).parse(html);

export const serializeHtml = (tree: Root | Element): string => toHtml(tree);

export const textOf = (node: Element): string => toString(node).replace(/\s+/g, " ").trim();

/** The text an HTML fragment reads as (entities decoded, tags gone): Substack's CSV titles are HTML-escaped. */
export const htmlText = (html: string): string => toString(parseHtml(html)).replace(/\s+/g, " ").trim();

export function classesOf(node: Element): string[] {
  const value: unknown = node.properties?.className;
  return Array.isArray(value) ? value.map(String) : typeof value === "string" ? value.split(/\s+/) : [];
}

export const hasClass = (node: Element, name: string) => classesOf(node).includes(name);

export const isElement = (node: RootContent | ElementContent | undefined): node is Element => node?.type === "element";

/** The first element under `node` (itself included) that `test` accepts. */
export function findElement(node: Root | Element, test: (element: Element) => boolean): Element | undefined {
  if (node.type === "element" && test(node)) return node;
  for (const child of node.children) {
    if (!isElement(child)) continue;
    const found = findElement(child, test);
    if (found) return found;
  }
  return undefined;
}

export function findElements(node: Root | Element, test: (element: Element) => boolean, found: Element[] = []): Element[] {
  if (node.type === "element" && test(node)) found.push(node);
  for (const child of node.children) if (isElement(child)) findElements(child, test, found);
  return found;
}

/**
 * Replaces, depth first from the top, each element `replace` answers for: with the nodes it gives
 * (none removes it), or keeps it and goes into its children when it answers undefined.
 */
export function replaceElements(node: Root | Element, replace: (element: Element) => ElementContent[] | undefined): void {
  const children: ElementContent[] = [];
  for (const child of node.children as ElementContent[]) {
    if (!isElement(child)) {
      children.push(child);
      continue;
    }
    const replacement = replace(child);
    if (replacement === undefined) {
      replaceElements(child, replace);
      children.push(child);
    } else children.push(...replacement);
  }
  node.children = children;
}

/** Removes every comment: markers a platform leaves in its HTML, never content. */
export function dropComments(node: Root | Element): void {
  node.children = (node.children as ElementContent[]).filter((child) => child.type !== "comment");
  for (const child of node.children) if (isElement(child)) dropComments(child);
}

/** An element built from a tag, its attributes and children (strings become text). */
export function h(tagName: string, properties: Record<string, string | number | undefined>, children: (ElementContent | string)[] = []): Element {
  const defined = Object.fromEntries(Object.entries(properties).filter((entry): entry is [string, string | number] => entry[1] !== undefined && entry[1] !== ""));
  return {
    type: "element",
    tagName,
    properties: defined,
    children: children.map((child) => (typeof child === "string" ? { type: "text", value: child } : child)),
  };
}
