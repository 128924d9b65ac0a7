// Users & teams, for the account's admins: invite someone by email, change who is an admin and
// who is in which team, remove a user, revoke a waiting invitation, and manage the teams. Every
// change is a call of the admin API; the lists are read again after each one.
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from '../api';
import { peopleApi, type TInvitationRow, type TTeamRow, type TUserRow } from '../people-api';
import type { TScreenProps } from '../routes';
import { useWords } from '../words';

interface TLists {
  users: TUserRow[];
  teams: TTeamRow[];
  invitations: TInvitationRow[];
}

/** What the last action said: read out by the live region. */
type TSaid = { text: string; error?: boolean } | undefined;

export function Users(props: TScreenProps) {
  const { t, lang } = useWords();
  const people = peopleApi(props.api);
  const [lists, setLists] = useState<TLists | undefined>(undefined);
  const [said, setSaid] = useState<TSaid>(undefined);
  const [editing, setEditing] = useState<string | undefined>(undefined);
  const [removing, setRemoving] = useState<string | undefined>(undefined);

  const load = async () => {
    const [users, teams, invitations] = await Promise.all([
      people.users(),
      people.teams(),
      people.invitations(),
    ]);
    setLists({ users, teams, invitations });
  };

  /** Runs a change, says how it went, and reads the lists again. */
  const act = async (change: () => Promise<unknown>, done: string, conflict = t('people.conflict')) => {
    try {
      await change();
      setSaid({ text: done });
      await load();
      return true;
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) {
        props.onSessionEnded();
        return false;
      }
      const text =
        err instanceof ApiError && err.status === 409
          ? conflict
          : err instanceof ApiError && err.status === 400
            ? t('people.invalid')
            : t('people.failed');
      setSaid({ text, error: true });
      return false;
    }
  };

  useEffect(() => {
    load().catch((err) => {
      if (err instanceof ApiError && err.status === 401) return props.onSessionEnded();
      setSaid({ text: t('people.failed'), error: true });
    });
  }, []);

  if (!lists) {
    return (
      <>
        <h1>{t('people.heading')}</h1>
        {said ? (
          <p class="error" role="alert">
            {said.text}
          </p>
        ) : (
          <p role="status">{t('loading')}</p>
        )}
      </>
    );
  }
  const teamName = new Map(lists.teams.map((tm) => [tm.id, tm.name]));
  const dates = new Intl.DateTimeFormat(lang, { dateStyle: 'medium' });

  return (
    <div class="people">
      <h1>{t('people.heading')}</h1>
      <p class={said?.error ? 'error' : 'notice'} role="status" aria-live="polite">
        {said?.text ?? ''}
      </p>

      <InviteForm
        teams={lists.teams}
        onInvite={(body) =>
          act(
            () => people.invite(body),
            t('people.invited', { email: body.email }),
            t('people.inviteConflict'),
          )
        }
      />

      <section aria-labelledby="users-heading">
        <h2 id="users-heading">{t('people.usersHeading')}</h2>
        <ul class="cards">
          {lists.users.map((u) => {
            const name = u.name || u.email;
            return (
              <li key={u.id} class="card">
                <p>
                  <strong>
                    <bdi>{name}</bdi>
                  </strong>
                  {u.id === props.session.user.id && <span> {t('people.you')}</span>}
                  <span class="id">
                    <bdi>{u.email}</bdi>
                  </span>
                </p>
                <p>
                  {u.is_admin ? t('people.roleAdmin') : t('people.roleUser')}
                  {u.teams.length > 0 && (
                    <>
                      {' · '}
                      <bdi>{u.teams.map((id) => teamName.get(id) ?? id).join(', ')}</bdi>
                    </>
                  )}
                </p>
                {editing === u.id ? (
                  <EditUser
                    user={u}
                    teams={lists.teams}
                    onCancel={() => setEditing(undefined)}
                    onSave={async (patch) => {
                      if (
                        await act(
                          () => people.changeUser(u.id, patch),
                          t('people.saved', { name }),
                          t('people.lastAdmin'),
                        )
                      )
                        setEditing(undefined);
                    }}
                  />
                ) : removing === u.id ? (
                  <ConfirmRemove
                    question={t('people.confirmRemove', { name })}
                    onConfirm={async () => {
                      await act(
                        () => people.removeUser(u.id),
                        t('people.removed', { name }),
                        t('people.lastAdmin'),
                      );
                      setRemoving(undefined);
                    }}
                    onCancel={() => setRemoving(undefined)}
                  />
                ) : (
                  <div class="actions">
                    <button
                      type="button"
                      class="secondary"
                      aria-label={t('people.editLabel', { name })}
                      onClick={() => setEditing(u.id)}
                    >
                      {t('people.edit')}
                    </button>
                    <button
                      type="button"
                      class="secondary"
                      aria-label={t('people.removeLabel', { name })}
                      onClick={() => setRemoving(u.id)}
                    >
                      {t('people.remove')}
                    </button>
                  </div>
                )}
              </li>
            );
          })}
        </ul>
      </section>

      <section aria-labelledby="pending-heading">
        <h2 id="pending-heading">{t('people.pendingHeading')}</h2>
        {lists.invitations.length === 0 ? (
          <p>{t('people.noPending')}</p>
        ) : (
          <ul class="cards">
            {lists.invitations.map((i) => (
              <li key={i.id} class="card">
                <p>
                  <strong>
                    <bdi>{i.name}</bdi>
                  </strong>
                  <span class="id">
                    <bdi>{i.email}</bdi>
                  </span>
                </p>
                <p>{t('people.expires', { date: dates.format(new Date(i.expires)) })}</p>
                <button
                  type="button"
                  class="secondary"
                  aria-label={t('people.revokeLabel', { email: i.email })}
                  onClick={() => act(() => people.revokeInvitation(i.id), t('people.revoked'))}
                >
                  {t('people.revoke')}
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>

      <Teams
        teams={lists.teams}
        onCreate={(name) => act(() => people.createTeam(name), t('people.teamCreated', { name }))}
        onRename={(id, name) => act(() => people.renameTeam(id, name), t('people.teamRenamed', { name }))}
        onDelete={(tm) => act(() => people.deleteTeam(tm.id), t('people.teamDeleted', { name: tm.name }))}
      />
    </div>
  );
}

/** Asks before removing a user; the keyboard lands on Cancel, the safe answer. */
function ConfirmRemove(props: { question: string; onConfirm: () => void; onCancel: () => void }) {
  const { t } = useWords();
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => cancel.current?.focus(), []);
  return (
    <div class="confirm">
      <p>{props.question}</p>
      <div class="actions">
        <button type="button" class="danger" onClick={props.onConfirm}>
          {t('people.confirm')}
        </button>
        <button type="button" class="secondary" ref={cancel} onClick={props.onCancel}>
          {t('people.cancel')}
        </button>
      </div>
    </div>
  );
}

/** The team checkboxes of a form, as one group. */
function TeamChoices(props: {
  idPrefix: string;
  teams: TTeamRow[];
  chosen: string[];
  onChange: (ids: string[]) => void;
}) {
  const { t } = useWords();
  if (props.teams.length === 0) return null;
  return (
    <fieldset>
      <legend>{t('people.teams')}</legend>
      {props.teams.map((tm) => (
        <div key={tm.id} class="check">
          <input
            id={`${props.idPrefix}-${tm.id}`}
            type="checkbox"
            checked={props.chosen.includes(tm.id)}
            onChange={(e) =>
              props.onChange(
                (e.currentTarget as HTMLInputElement).checked
                  ? [...props.chosen, tm.id]
                  : props.chosen.filter((id) => id !== tm.id),
              )
            }
          />
          <label for={`${props.idPrefix}-${tm.id}`}>
            <bdi>{tm.name}</bdi>
          </label>
        </div>
      ))}
    </fieldset>
  );
}

function InviteForm(props: {
  teams: TTeamRow[];
  onInvite: (body: { name: string; email: string; is_admin: boolean; teams: string[] }) => Promise<boolean>;
}) {
  const { t } = useWords();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [admin, setAdmin] = useState(false);
  const [teams, setTeams] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  return (
    <section aria-labelledby="invite-heading">
      <h2 id="invite-heading">{t('people.inviteHeading')}</h2>
      <form
        class="stacked"
        onSubmit={async (e) => {
          e.preventDefault();
          setBusy(true);
          const sent = await props.onInvite({
            name: name.trim(),
            email: email.trim(),
            is_admin: admin,
            teams,
          });
          setBusy(false);
          if (sent) {
            setName('');
            setEmail('');
            setAdmin(false);
            setTeams([]);
          }
        }}
      >
        <label for="invite-name">{t('people.name')}</label>
        <input
          id="invite-name"
          required
          maxLength={200}
          autocomplete="off"
          value={name}
          onInput={(e) => setName((e.currentTarget as HTMLInputElement).value)}
        />
        <label for="invite-email">{t('people.email')}</label>
        <input
          id="invite-email"
          type="email"
          required
          maxLength={254}
          autocomplete="off"
          value={email}
          onInput={(e) => setEmail((e.currentTarget as HTMLInputElement).value)}
        />
        <div class="check">
          <input
            id="invite-admin"
            type="checkbox"
            checked={admin}
            aria-describedby="invite-admin-hint"
            onChange={(e) => setAdmin((e.currentTarget as HTMLInputElement).checked)}
          />
          <label for="invite-admin">{t('people.admin')}</label>
        </div>
        <p id="invite-admin-hint" class="hint">
          {t('people.adminHint')}
        </p>
        <TeamChoices idPrefix="invite-team" teams={props.teams} chosen={teams} onChange={setTeams} />
        <button type="submit" disabled={busy}>
          {t('people.invite')}
        </button>
      </form>
    </section>
  );
}

function EditUser(props: {
  user: TUserRow;
  teams: TTeamRow[];
  onSave: (patch: { is_admin: boolean; teams: string[] }) => void;
  onCancel: () => void;
}) {
  const { t } = useWords();
  const [admin, setAdmin] = useState(props.user.is_admin);
  const [teams, setTeams] = useState(props.user.teams);
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), []);
  const prefix = `edit-${props.user.id}`;
  return (
    <form
      class="stacked"
      aria-label={t('people.editLabel', { name: props.user.name || props.user.email })}
      onSubmit={(e) => {
        e.preventDefault();
        props.onSave({ is_admin: admin, teams });
      }}
    >
      <div class="check">
        <input
          id={`${prefix}-admin`}
          ref={first}
          type="checkbox"
          checked={admin}
          onChange={(e) => setAdmin((e.currentTarget as HTMLInputElement).checked)}
        />
        <label for={`${prefix}-admin`}>{t('people.admin')}</label>
      </div>
      <TeamChoices idPrefix={`${prefix}-team`} teams={props.teams} chosen={teams} onChange={setTeams} />
      <div class="actions">
        <button type="submit">{t('people.save')}</button>
        <button type="button" class="secondary" onClick={props.onCancel}>
          {t('people.cancel')}
        </button>
      </div>
    </form>
  );
}

function Teams(props: {
  teams: TTeamRow[];
  onCreate: (name: string) => Promise<boolean>;
  onRename: (id: string, name: string) => Promise<boolean>;
  onDelete: (team: TTeamRow) => Promise<boolean>;
}) {
  const { t } = useWords();
  const [name, setName] = useState('');
  const [renaming, setRenaming] = useState<{ id: string; name: string } | undefined>(undefined);
  return (
    <section aria-labelledby="teams-heading">
      <h2 id="teams-heading">{t('people.teamsHeading')}</h2>
      {props.teams.length === 0 ? (
        <p>{t('people.noTeams')}</p>
      ) : (
        <ul class="cards">
          {props.teams.map((tm) => (
            <li key={tm.id} class="card">
              {renaming?.id === tm.id ? (
                <form
                  class="stacked"
                  onSubmit={async (e) => {
                    e.preventDefault();
                    if (await props.onRename(tm.id, renaming.name.trim())) setRenaming(undefined);
                  }}
                >
                  <label for={`rename-${tm.id}`}>{t('people.teamName')}</label>
                  <input
                    id={`rename-${tm.id}`}
                    required
                    maxLength={200}
                    value={renaming.name}
                    onInput={(e) =>
                      setRenaming({ id: tm.id, name: (e.currentTarget as HTMLInputElement).value })
                    }
                  />
                  <div class="actions">
                    <button type="submit">{t('people.save')}</button>
                    <button type="button" class="secondary" onClick={() => setRenaming(undefined)}>
                      {t('people.cancel')}
                    </button>
                  </div>
                </form>
              ) : (
                <>
                  <p>
                    <strong>
                      <bdi>{tm.name}</bdi>
                    </strong>
                  </p>
                  <div class="actions">
                    <button
                      type="button"
                      class="secondary"
                      aria-label={t('people.renameLabel', { name: tm.name })}
                      onClick={() => setRenaming({ id: tm.id, name: tm.name })}
                    >
                      {t('people.rename')}
                    </button>
                    <button
                      type="button"
                      class="secondary"
                      aria-label={t('people.deleteLabel', { name: tm.name })}
                      onClick={() => props.onDelete(tm)}
                    >
                      {t('people.delete')}
                    </button>
                  </div>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
      <form
        class="stacked"
        onSubmit={async (e) => {
          e.preventDefault();
          if (await props.onCreate(name.trim())) setName('');
        }}
      >
        <label for="team-name">{t('people.newTeam')}</label>
        <input
          id="team-name"
          required
          maxLength={200}
          value={name}
          onInput={(e) => setName((e.currentTarget as HTMLInputElement).value)}
        />
        <button type="submit">{t('people.createTeam')}</button>
      </form>
    </section>
  );
}
