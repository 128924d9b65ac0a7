// The second question before something is deleted or replaced, asked in the page rather than in a
// browser dialog, so it reads in the reader's language; the keyboard lands on its answer.
import { useEffect, useRef } from 'preact/hooks';
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
