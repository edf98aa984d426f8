"use client";

import { useId, useState, type KeyboardEvent } from "react";
import { Input } from "~/components/ui/input";
import { MAX_TAGS, TAG_MAX_LENGTH, tagSlug } from "~/shared/tags";

/**
 * A blog's tags as removable chips: typing a tag and pressing Enter or a comma adds it; the
 * account's existing tags are suggested as the owner types (a native datalist). The rules are the
 * API's (src/shared/tags.ts): one spelling per slug, at most MAX_TAGS.
 */
export function TagInput({
  tags,
  onChange,
  suggestions,
  error,
}: {
  tags: string[];
  onChange: (tags: string[]) => void;
  suggestions: string[];
  error?: string;
}) {
  const id = useId();
  const [text, setText] = useState("");
  const [problem, setProblem] = useState("");

  const add = () => {
    const tag = text.trim();
    if (!tag) return;
    const slug = tagSlug(tag);
    if (tag.length > TAG_MAX_LENGTH) setProblem(`A tag has at most ${TAG_MAX_LENGTH} characters.`);
    else if (!slug) setProblem("A tag needs a letter a-z or a digit 0-9.");
    else if (tags.some((t) => tagSlug(t) === slug)) setProblem(`“${tag}” is already a tag of this blog.`);
    else if (tags.length >= MAX_TAGS) setProblem(`A blog has at most ${MAX_TAGS} tags.`);
    else {
      onChange([...tags, tag]);
      setText("");
      setProblem("");
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "Enter" || event.key === ",") {
      event.preventDefault();
      add();
    } else if (event.key === "Backspace" && text === "" && tags.length > 0) {
      onChange(tags.slice(0, -1));
    }
  };

  const message = problem || error;
  const offered = suggestions.filter((s) => !tags.some((t) => tagSlug(t) === tagSlug(s)));
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        Tags
      </label>
      {tags.length > 0 && (
        <ul aria-label="Tags of this blog" className="flex flex-wrap gap-1.5">
          {tags.map((tag) => (
            <li key={tag} className="inline-flex items-center gap-1 rounded-full bg-indigo-100 py-0.5 pr-1 pl-2.5 text-sm text-indigo-900">
              {tag}
              <button
                type="button"
                onClick={() => onChange(tags.filter((t) => t !== tag))}
                aria-label={`Remove tag ${tag}`}
                className="inline-flex size-6 items-center justify-center rounded-full text-indigo-800 hover:bg-indigo-200 focus-visible:outline-2 focus-visible:outline-indigo-600"
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <Input
        id={id}
        list={`${id}-suggestions`}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setProblem("");
        }}
        onKeyDown={onKeyDown}
        onBlur={add}
        invalid={Boolean(message)}
        aria-describedby={`${id}-hint ${id}-error`}
        placeholder={tags.length >= MAX_TAGS ? "" : "Add a tag"}
        disabled={tags.length >= MAX_TAGS}
      />
      <datalist id={`${id}-suggestions`}>
        {offered.map((suggestion) => (
          <option key={suggestion} value={suggestion} />
        ))}
      </datalist>
      <p id={`${id}-hint`} className="text-xs text-slate-500">
        Enter or comma adds a tag; up to {MAX_TAGS}. {tags.length} / {MAX_TAGS}
      </p>
      <p id={`${id}-error`} role={message ? "alert" : undefined} className="min-h-4 text-xs text-red-600">
        {message ?? ""}
      </p>
    </div>
  );
}
