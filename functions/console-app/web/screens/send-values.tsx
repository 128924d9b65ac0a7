// The Send screen's field values for a template's documents: each a field's key or the label the
// document shows, and its value, sent as the bundle's `data` (the API fills the fields they name
// and checks each value as the signer's would be; docs/architecture/bundles.md, "Prefill").
import type { TFieldErrors, TValueRow } from '../send-draft';
import { useWords } from '../words';

let nextUid = 1;

export function SendValues(props: {
  rows: TValueRow[];
  errors: TFieldErrors;
  onChange: (rows: TValueRow[]) => void;
}) {
  const { t } = useWords();
  const { rows } = props;
  const change = (uid: number, patch: Partial<TValueRow>) =>
    props.onChange(rows.map((r) => (r.uid === uid ? { ...r, ...patch } : r)));
  const input = (r: TValueRow, part: 'name' | 'value', n: number) => {
    const id = `send-value-${r.uid}-${part}`;
    const error = props.errors[id];
    return (
      <div class="field">
        <label for={id}>{t(`prefill.${part}`, { n })}</label>
        <input
          id={id}
          type="text"
          value={r[part]}
          maxLength={part === 'name' ? 255 : 10_000}
          autoComplete="off"
          {...(error ? { 'aria-describedby': `${id}-error`, 'aria-invalid': true as const } : {})}
          onInput={(e) => change(r.uid, { [part]: (e.currentTarget as HTMLInputElement).value })}
        />
        {error ? (
          <p class="field-error" id={`${id}-error`}>
            {error}
          </p>
        ) : null}
      </div>
    );
  };
  return (
    <fieldset class="values" id="send-values" tabIndex={-1}>
      <legend>{t('prefill.legend')}</legend>
      <p class="muted">{t('prefill.hint')}</p>
      {/* An error of a name the rows no longer hold (changed since): said for the whole list. */}
      {props.errors['send-values'] ? (
        <p class="field-error" id="send-values-error">
          {props.errors['send-values']}
        </p>
      ) : null}
      {rows.map((r, i) => (
        <div class="value-row" key={r.uid}>
          {input(r, 'name', i + 1)}
          {input(r, 'value', i + 1)}
          <button
            type="button"
            class="secondary"
            aria-label={t('prefill.removeNamed', { n: i + 1 })}
            onClick={() => props.onChange(rows.filter((x) => x.uid !== r.uid))}
          >
            {t('send.remove')}
          </button>
        </div>
      ))}
      <button
        type="button"
        class="secondary"
        onClick={() => props.onChange([...rows, { uid: nextUid++, name: '', value: '' }])}
      >
        {t('prefill.add')}
      </button>
    </fieldset>
  );
}
