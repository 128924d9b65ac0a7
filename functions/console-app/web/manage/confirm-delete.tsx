// The second question before something is deleted or replaced, asked in the page rather than in a
// browser dialog, so it reads in the reader's language; the keyboard lands on its answer.
import { useEffect, useRef, useState } from 'preact/hooks';
import { useWords } from '../words';

/** Asks once more; `yes` names the answer (`manage.confirmDelete`'s words unless given). */
export function ConfirmDelete(props: {
  question: string;
  yes?: string;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const { t } = useWords();
  const answer = useRef<HTMLButtonElement>(null);
  useEffect(() => answer.current?.focus(), []);
  return (
    <div class="confirm" role="alertdialog" aria-labelledby="confirm-question">
      <p id="confirm-question">{props.question}</p>
      <div class="actions">
        <button type="button" class="danger" ref={answer} disabled={props.busy} onClick={props.onConfirm}>
          {props.yes ?? t('manage.confirmDelete')}
        </button>
        <button type="button" class="secondary" disabled={props.busy} onClick={props.onCancel}>
          {t('manage.cancel')}
        </button>
      </div>
    </div>
  );
}

/**
 * A button that asks before it acts: pressed, the question takes its place; answered yes, it
 * runs `onConfirm` and, once that is done (a refusal shows above it), the button is back.
 */
export function AskFirst(props: {
  label: string;
  question: string;
  yes?: string;
  busy: boolean;
  /** `danger` (the default) for a deletion, `secondary` for a replacement. */
  look?: 'danger' | 'secondary';
  onConfirm: () => Promise<unknown>;
}) {
  const [asking, setAsking] = useState(false);
  if (!asking)
    return (
      <button
        type="button"
        class={props.look ?? 'danger'}
        disabled={props.busy}
        onClick={() => setAsking(true)}
      >
        {props.label}
      </button>
    );
  return (
    <ConfirmDelete
      question={props.question}
      {...(props.yes ? { yes: props.yes } : {})}
      busy={props.busy}
      onConfirm={() => void props.onConfirm().finally(() => setAsking(false))}
      onCancel={() => setAsking(false)}
    />
  );
}
