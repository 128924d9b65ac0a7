// The calls of the Users & teams and Security log screens: the admin API of the account's people
// (/api/v2/users, /invitations, /teams, /security_log) and accepting an invitation.
import type { TConsoleApi } from './api';
import { parsePagination, type TPagination } from './pagination';

export interface TUserRow {
  id: string;
  name: string;
  email: string;
  is_admin: boolean;
  teams: string[];
}

export interface TTeamRow {
  id: string;
  name: string;
}

export interface TInvitationRow {
  id: string;
  email: string;
  name: string;
  is_admin: boolean;
  expires: string;
}

export interface TSecurityEventRow {
  id: string;
  kind: string;
  user_id?: string;
  subject_id?: string;
  ip: string;
  at: string;
}

export function peopleApi(api: TConsoleApi) {
  const json = async <T>(method: string, path: string, body?: unknown): Promise<T> =>
    (await api.request(method, path, body)).json() as Promise<T>;
  return {
    users: () => json<TUserRow[]>('GET', '/api/v2/users/'),
    teams: () => json<TTeamRow[]>('GET', '/api/v2/teams/'),
    invitations: () => json<TInvitationRow[]>('GET', '/api/v2/invitations/'),
    invite: (body: { name: string; email: string; is_admin: boolean; teams: string[] }) =>
      json<TInvitationRow>('POST', '/api/v2/invitations/', body),
    revokeInvitation: (id: string) => api.request('DELETE', `/api/v2/invitations/${id}/`),
    changeUser: (id: string, patch: { is_admin: boolean; teams: string[] }) =>
      json<TUserRow>('PATCH', `/api/v2/users/${id}/`, patch),
    removeUser: (id: string) => api.request('DELETE', `/api/v2/users/${id}/`),
    createTeam: (name: string) => json<TTeamRow>('POST', '/api/v2/teams/', { name }),
    renameTeam: (id: string, name: string) => json<TTeamRow>('PATCH', `/api/v2/teams/${id}/`, { name }),
    deleteTeam: (id: string) => api.request('DELETE', `/api/v2/teams/${id}/`),
    async securityLog(page: number): Promise<{ events: TSecurityEventRow[]; pagination: TPagination }> {
      const res = await api.request('GET', `/api/v2/security_log/?page=${page}&per_page=25`);
      return {
        events: await res.json(),
        pagination: parsePagination(res.headers.get('x-blueink-pagination')),
      };
    },
    /** Makes the invited user and their session (the cookie); the session is then read as usual. */
    acceptInvitation: (token: string) => api.request('POST', '/console/api/invitations/accept', { token }),
  };
}
