// A modal question before a step that cannot be undone: the browser's own <dialog>, so focus
// moves into it, stays in it, and Escape closes it without a line of focus-trapping code.
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

export function Confirm(props: {
  open: boolean;
  title: string;
  children: ComponentChildren;
  confirm: string;
  keep: string;
  busy?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (props.open && !d.open) d.showModal();
    if (!props.open && d.open) d.close();
  }, [props.open]);
  return (
    <dialog ref={ref} class="confirm-dialog" aria-labelledby="confirm-title" onClose={props.onClose}>
      <h2 id="confirm-title">{props.title}</h2>
      {props.children}
      <div class="actions">
        <button type="button" class="danger" disabled={props.busy} onClick={props.onConfirm}>
          {props.confirm}
        </button>
        <button type="button" class="secondary" onClick={props.onClose}>
          {props.keep}
        </button>
      </div>
    </dialog>
  );
}
