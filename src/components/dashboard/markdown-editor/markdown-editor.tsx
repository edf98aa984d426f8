"use client";

import { defaultKeymap, history, historyKeymap } from "@codemirror/commands";
import { Annotation, Compartment, EditorSelection, EditorState, type Extension } from "@codemirror/state";
import { dropCursor, EditorView, keymap, placeholder } from "@codemirror/view";
import { useEffect, useImperativeHandle, useLayoutEffect, useRef, useState, type ReactNode, type RefObject } from "react";
import { cn } from "~/lib/cn";
import { insertBlock } from "~/lib/markdown-format";
import { ImageFileInput } from "../image-upload";
import { editorTheme } from "./editor-theme";
import { ariaShortcut, applyEdit, FORMAT_ACTIONS, formatKeymap, shortcutText } from "./format-actions";
import { continueOnEnter, markdownLanguage } from "./markdown-language";
import { Toolbar, type ToolbarItem } from "./toolbar";
import { ENTER_FOCUS_ICON, EXIT_FOCUS_ICON, FORMAT_ICONS, IMAGE_ICON } from "./toolbar-icons";

/** A place in the text (a selection, or a caret when `from` = `to`), kept where it was through later edits until released. */
export interface TextPlace {
  from: number;
  to: number;
}

/** What the blog form's content does to the editor from outside: images go in once described. */
export interface MarkdownEditorHandle {
  /** `block` on lines of its own at `place` (released), the caret after it. */
  insertBlock: (place: TextPlace, block: string) => void;
  /** The focus in the editor, the caret at the end of `place` (released) if given; false when the editor is hidden. */
  focus: (place: TextPlace | null) => boolean;
  /** Forgets `place`: it is not used. */
  release: (place: TextPlace) => void;
}

export interface MarkdownEditorProps {
  content: string;
  onChange: (content: string) => void;
  /** The editable region's accessible name, its description's element ids, and whether its content is refused. */
  label: string;
  describedBy?: string;
  invalid: boolean;
  focusMode: boolean;
  onFocusModeChange: (on: boolean) => void;
  /** An image file chosen, pasted or dropped, and where it goes: hand the place back through `handle` (or it is kept forever). */
  onImageFile: (file: File, place: TextPlace) => void;
  imageButtonId: string;
  /** The scrolled share of the text, 0 to 1, as the owner scrolls (for a preview beside it). */
  onScroll?: (share: number) => void;
  handle: RefObject<MarkdownEditorHandle | null>;
  className?: string;
  /** The editing box's size. */
  boxClassName?: string;
  /** Shown beside the editing box, under the toolbar (the preview, on a wide screen). */
  beside?: ReactNode;
  /** Only `beside` shown (the preview's turn on a narrow screen): the editor stays, hidden, with its history. */
  editorHidden?: boolean;
}

const FOCUS_MODE_KEY = "Mod-Shift-f";

/** A change made from the content given (a draft restored, a revision): not the owner's typing, so not told back. */
const fromProps = Annotation.define<boolean>();

const selectionPlace = (view: EditorView): TextPlace => ({ from: view.state.selection.main.from, to: view.state.selection.main.to });

const accessibility = (props: Pick<MarkdownEditorProps, "label" | "describedBy" | "invalid">): Extension =>
  EditorView.contentAttributes.of({
    "aria-label": props.label,
    ...(props.describedBy && { "aria-describedby": props.describedBy }),
    ...(props.invalid && { "aria-invalid": "true" }),
  });

/**
 * CodeMirror 6 as a Markdown writing surface: highlighted as it is typed, wrapped, with undo, the
 * formatting toolbar and its shortcuts, lists and quotes continued on Enter, and image files
 * (chosen, pasted, or dropped where the pointer is) handed to the form with the place they go.
 * Loaded only by the blog pages (next/dynamic): CodeMirror is most of its weight.
 */
export default function MarkdownEditor(props: MarkdownEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const viewRef = useRef<EditorView | null>(null);
  const latest = useRef(props);
  const emitted = useRef(props.content);
  const places = useRef(new Set<TextPlace>());
  const visited = useRef(false);
  const ariaCompartment = useRef(new Compartment());
  const fileInput = useRef<HTMLInputElement>(null);
  const [draggingFile, setDraggingFile] = useState(false);

  useLayoutEffect(() => {
    latest.current = props;
  });

  useEffect(() => {
    const trackPlaces = EditorView.updateListener.of((update) => {
      if (!update.docChanged) return;
      for (const place of places.current) {
        // A caret stays before what is typed at it; a selection keeps only what is left of it.
        const from = update.changes.mapPos(place.from, place.from === place.to ? -1 : 1);
        place.to = Math.max(from, update.changes.mapPos(place.to, -1));
        place.from = from;
      }
      if (update.transactions.some((transaction) => transaction.annotation(fromProps))) return;
      emitted.current = update.state.doc.toString();
      latest.current.onChange(emitted.current);
    });

    const handOver = (file: File, place: TextPlace) => {
      places.current.add(place);
      latest.current.onImageFile(file, place);
    };
    const imageEvents = EditorView.domEventHandlers({
      focus: () => {
        visited.current = true;
      },
      paste: (event, view) => {
        const image = Array.from(event.clipboardData?.files ?? []).find((file) => file.type.startsWith("image/"));
        if (!image) return false;
        event.preventDefault();
        handOver(image, selectionPlace(view));
        return true;
      },
      dragover: (event) => {
        if (!event.dataTransfer?.types.includes("Files")) return false;
        setDraggingFile(true);
        return false;
      },
      dragleave: () => setDraggingFile(false),
      drop: (event, view) => {
        setDraggingFile(false);
        const file = event.dataTransfer?.files[0];
        if (!file) return false;
        event.preventDefault();
        // Where the pointer let go, when it was over the editor (a drop scripted without a point goes to the selection).
        const box = view.dom.getBoundingClientRect();
        const over = event.clientX >= box.left && event.clientX <= box.right && event.clientY >= box.top && event.clientY <= box.bottom;
        const at = over ? view.posAtCoords({ x: event.clientX, y: event.clientY }) : null;
        handOver(file, at === null ? selectionPlace(view) : { from: at, to: at });
        return true;
      },
      scroll: (_event, view) => {
        const { scrollTop, scrollHeight, clientHeight } = view.scrollDOM;
        latest.current.onScroll?.(scrollHeight > clientHeight ? scrollTop / (scrollHeight - clientHeight) : 0);
      },
    });

    const view = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: latest.current.content,
        extensions: [
          history(),
          keymap.of([
            ...formatKeymap,
            continueOnEnter,
            { key: FOCUS_MODE_KEY, run: () => (latest.current.onFocusModeChange(!latest.current.focusMode), true) },
            ...defaultKeymap,
            ...historyKeymap,
          ]),
          markdownLanguage,
          EditorView.lineWrapping,
          dropCursor(),
          placeholder("Write here. Markdown works: ## for a heading, **bold**, - for a list…"),
          editorTheme,
          // tabindex: a contenteditable is focusable anyway, but axe counts only a tabindex as a scrolling region's keyboard access.
          EditorView.contentAttributes.of({ spellcheck: "true", autocorrect: "on", autocapitalize: "sentences", tabindex: "0" }),
          ariaCompartment.current.of(accessibility(latest.current)),
          trackPlaces,
          imageEvents,
        ],
      }),
    });
    viewRef.current = view;
    return () => {
      view.destroy();
      viewRef.current = null;
    };
  }, []);

  // The content changed from outside (a draft restored, a revision, a conflict reloaded): the editor takes it, undoably.
  useEffect(() => {
    const view = viewRef.current;
    if (!view || props.content === emitted.current) return;
    emitted.current = props.content;
    view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: props.content }, annotations: fromProps.of(true) });
  }, [props.content]);

  const { label, describedBy, invalid } = props;
  useEffect(() => {
    viewRef.current?.dispatch({ effects: ariaCompartment.current.reconfigure(accessibility({ label, describedBy, invalid })) });
  }, [label, describedBy, invalid]);

  useImperativeHandle(
    props.handle,
    () => ({
      insertBlock: (place, block) => {
        const view = viewRef.current;
        places.current.delete(place);
        if (!view) return;
        const edit = insertBlock(view.state.doc.toString(), place.from, place.to, block);
        view.dispatch({
          changes: { from: edit.from, to: edit.to, insert: edit.insert },
          selection: EditorSelection.cursor(edit.selection.from),
          scrollIntoView: true,
          userEvent: "input.image",
        });
      },
      focus: (place) => {
        const view = viewRef.current;
        if (place) places.current.delete(place);
        if (!view || !view.dom.checkVisibility()) return false;
        if (place) view.dispatch({ selection: EditorSelection.cursor(Math.min(place.to, view.state.doc.length)) });
        view.focus();
        return true;
      },
      release: (place) => places.current.delete(place),
    }),
    [],
  );

  const run = (action: (view: EditorView) => void) => () => {
    const view = viewRef.current;
    if (!view) return;
    action(view);
    view.focus();
  };

  const items: ToolbarItem[] = [
    ...FORMAT_ACTIONS.map((action) => ({
      name: action.name,
      label: action.label,
      icon: FORMAT_ICONS[action.name],
      shortcut: shortcutText(action.keys[0]!),
      ariaShortcut: action.keys.map(ariaShortcut).join(" "),
      run: run((view) => applyEdit(view, action.edit)),
    })),
    {
      name: "image",
      label: "Upload image",
      icon: IMAGE_ICON,
      id: props.imageButtonId,
      run: () => fileInput.current?.click(),
    },
    props.focusMode
      ? { name: "focus", label: "Exit focus mode", icon: EXIT_FOCUS_ICON, shortcut: "Esc", ariaShortcut: "Escape", labelShown: true, run: () => props.onFocusModeChange(false) }
      : {
          name: "focus",
          label: "Focus mode",
          icon: ENTER_FOCUS_ICON,
          shortcut: shortcutText(FOCUS_MODE_KEY),
          ariaShortcut: ariaShortcut(FOCUS_MODE_KEY),
          run: () => props.onFocusModeChange(true),
        },
  ];

  const chooseImage = (file: File) => {
    const view = viewRef.current;
    if (!view) return;
    // Until the owner has been in the text, its selection (0, 0) says nothing: the image goes after the text.
    const end = view.state.doc.length;
    const place = visited.current ? selectionPlace(view) : { from: end, to: end };
    places.current.add(place);
    props.onImageFile(file, place);
  };

  return (
    <div className={cn("flex min-h-0 flex-col gap-2", props.className)}>
      <Toolbar label="Formatting" items={items} className={cn(props.editorHidden && "hidden")} />
      <ImageFileInput ref={fileInput} onChosen={chooseImage} />
      <div className={cn("grid min-h-0 flex-1 gap-4", Boolean(props.beside) && !props.editorHidden && "grid-cols-2")}>
        <div
          ref={host}
          className={cn(
            "isolate min-h-0 min-w-0 overflow-hidden rounded-md border bg-white focus-within:outline-2 focus-within:outline-indigo-600",
            props.invalid ? "border-red-500" : "border-slate-300",
            draggingFile && "outline-2 outline-offset-2 outline-indigo-600",
            props.editorHidden && "hidden",
            props.boxClassName,
          )}
        />
        {props.beside}
      </div>
    </div>
  );
}
