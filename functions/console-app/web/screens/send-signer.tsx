// One signer of the Send screen: name, email and/or phone, language, and how they prove who they
// are; with a template the role it fills (and, for an envelope template, the role's own order and
// checks, which the template decides).
import { PACKET_ROLES, type TFieldErrors, type TPacketRole, type TSigner } from '../send-draft';
import { useWords } from '../words';

export function SignerFields(props: {
  signer: TSigner;
  index: number;
  count: number;
  /** A template's roles: signers are neither added, removed nor reordered. */
  fixed: boolean;
  /** An envelope template: its roles carry their own authentication. */
  envelope: boolean;
  languages: { value: string; name: string }[];
  errors: TFieldErrors;
  onChange: (change: Partial<TSigner>) => void;
  onMove: (by: number) => void;
  onRemove: () => void;
}) {
  const { t } = useWords();
  const { signer: s, index } = props;
  const id = (part: string) => `signer-${s.uid}-${part}`;
  const error = (part: string) =>
    props.errors[id(part)] ? (
      <p class="field-error" id={`${id(part)}-error`}>
        {props.errors[id(part)]}
      </p>
    ) : null;
  const aria = (part: string) =>
    props.errors[id(part)] ? { 'aria-describedby': `${id(part)}-error`, 'aria-invalid': true as const } : {};
  const title = s.role
    ? // The role is isolated (FSI…PDI): a Latin name inside Arabic or Hebrew keeps its own direction.
      t('send.signers.numberedRole', { n: index + 1, role: `\u2068${s.role.label || s.role.key}\u2069` })
    : t('send.signers.numbered', { n: index + 1 });
  const text = (
    part: 'name' | 'email' | 'phone',
    type: 'text' | 'email' | 'tel',
    max: number,
    autocomplete: string,
  ) => (
    <div class="field">
      <label for={id(part)}>{t(`send.signers.${part}`)}</label>
      <input
        id={id(part)}
        // One of three text-like kinds; Preact's input typing cannot follow a union here.
        type={type as 'text'}
        value={s[part]}
        maxLength={max}
        autoComplete={autocomplete}
        {...aria(part)}
        onInput={(e) => props.onChange({ [part]: (e.currentTarget as HTMLInputElement).value })}
      />
      {error(part)}
    </div>
  );

  return (
    <fieldset class="signer">
      <legend>{title}</legend>
      <div class="signer-grid">
        {text('name', 'text', 255, 'off')}
        {text('email', 'email', 254, 'off')}
        {text('phone', 'tel', 128, 'off')}
        <div class="field">
          <label for={id('language')}>{t('send.signers.language')}</label>
          <select
            id={id('language')}
            value={s.language}
            {...aria('language')}
            onChange={(e) => props.onChange({ language: (e.currentTarget as HTMLSelectElement).value })}
          >
            <option value="">{t('send.signers.accountLanguage')}</option>
            {props.languages.map((l) => (
              <option key={l.value} value={l.value} lang={l.value}>
                {l.name}
              </option>
            ))}
          </select>
          {error('language')}
        </div>
        {!props.envelope && (
          // What this person does: signs, approves (or rejects), or only reads.
          <div class="field">
            <label for={id('acts')}>{t('sendExtras.role.label')}</label>
            <select
              id={id('acts')}
              value={s.acts ?? 'signer'}
              {...aria('acts')}
              onChange={(e) =>
                props.onChange({ acts: (e.currentTarget as HTMLSelectElement).value as TPacketRole })
              }
            >
              {PACKET_ROLES.map((r) => (
                <option key={r} value={r}>
                  {t(`sendExtras.role.${r}`)}
                </option>
              ))}
            </select>
            {error('acts')}
          </div>
        )}
      </div>
      {!props.envelope && (
        <fieldset
          class="auth"
          id={id('auth')}
          tabIndex={-1}
          // A group is described by its error; aria-invalid belongs to the inputs a reader fills.
          aria-describedby={props.errors[id('auth')] ? `${id('auth')}-error` : undefined}
        >
          <legend>{t('send.signers.auth')}</legend>
          {(
            [
              ['authSms', 'sms'],
              ['authSelfie', 'selfie'],
              ['authId', 'id'],
            ] as const
          ).map(([key, word]) => (
            <label key={key} class="choice">
              <input
                type="checkbox"
                checked={s[key]}
                onChange={(e) => props.onChange({ [key]: (e.currentTarget as HTMLInputElement).checked })}
              />
              {t(`send.signers.auth_${word}`)}
            </label>
          ))}
          {error('auth')}
        </fieldset>
      )}
      {!props.fixed && (
        <div class="row-actions">
          <button
            type="button"
            class="secondary"
            disabled={index === 0}
            aria-label={t('send.moveUpNamed', { name: title })}
            onClick={() => props.onMove(-1)}
          >
            {t('send.moveUp')}
          </button>
          <button
            type="button"
            class="secondary"
            disabled={index === props.count - 1}
            aria-label={t('send.moveDownNamed', { name: title })}
            onClick={() => props.onMove(1)}
          >
            {t('send.moveDown')}
          </button>
          <button
            type="button"
            class="secondary"
            disabled={props.count === 1}
            aria-label={t('send.removeNamed', { name: title })}
            onClick={props.onRemove}
          >
            {t('send.remove')}
          </button>
        </div>
      )}
    </fieldset>
  );
}
