import { useRef, useState, type KeyboardEvent, type ReactNode } from "react";
import { cn } from "~/lib/cn";

export interface ToolbarItem {
  name: string;
  label: string;
  icon: ReactNode;
  /** Shown on hover and focus after the label, e.g. "Ctrl+B". */
  shortcut?: string;
  ariaShortcut?: string;
  /** The label written beside the icon, not only in the tooltip. */
  labelShown?: boolean;
  pressed?: boolean;
  id?: string;
  run: () => void;
}

/**
 * A toolbar as WAI-ARIA's pattern has it: one stop in the tab order, arrow keys (and Home, End)
 * between its buttons. Buttons don't take the focus from the editor when clicked, so the
 * selection they act on stays where it was. Tooltips open towards the middle, inside the page.
 */
export function Toolbar({ label, items, className }: { label: string; items: ToolbarItem[]; className?: string }) {
  const [active, setActive] = useState(0);
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);
  const current = Math.min(active, items.length - 1);

  const moveTo = (index: number) => {
    const next = (index + items.length) % items.length;
    setActive(next);
    buttons.current[next]?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const target = { ArrowRight: current + 1, ArrowLeft: current - 1, Home: 0, End: items.length - 1 }[event.key];
    if (target === undefined) return;
    event.preventDefault();
    moveTo(target);
  };

  return (
    <div role="toolbar" aria-label={label} onKeyDown={onKeyDown} className={cn("flex flex-wrap items-center gap-0.5", className)}>
      {items.map((item, index) => (
        <span key={item.name} className={cn("relative", item.labelShown && "ml-auto")}>
          <button
            ref={(element) => {
              buttons.current[index] = element;
            }}
            id={item.id}
            type="button"
            tabIndex={index === current ? 0 : -1}
            aria-label={item.labelShown ? undefined : item.label}
            aria-keyshortcuts={item.ariaShortcut}
            aria-pressed={item.pressed}
            onMouseDown={(event) => event.preventDefault()}
            onFocus={() => setActive(index)}
            onClick={item.run}
            className={cn(
              "peer inline-flex h-9 min-w-9 items-center justify-center gap-1.5 rounded-md px-2 text-sm font-medium text-slate-700",
              "hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600 aria-pressed:bg-slate-200",
            )}
          >
            {item.icon}
            {item.labelShown && item.label}
          </button>
          <span
            aria-hidden
            className={cn(
              "pointer-events-none absolute top-full z-10 mt-1 hidden rounded bg-slate-900 px-2 py-1 text-xs whitespace-nowrap text-white",
              "peer-hover:block peer-focus-visible:block",
              index < items.length / 2 ? "left-0" : "right-0",
            )}
          >
            {item.label}
            {item.shortcut && <span className="ml-2 text-slate-300">{item.shortcut}</span>}
          </span>
        </span>
      ))}
    </div>
  );
}
