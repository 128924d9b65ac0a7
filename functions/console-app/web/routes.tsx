// Every signed-in screen, by path: the one table the app routes by and the menu is drawn from.
// A screen is a component given the same props; a path's groups (an id, say) come as `params`.
import type { JSX } from 'preact';
import type { TConsoleApi, TSession } from './api';
import { DocTemplateList, DocTemplatePage } from './manage/doc-templates';
import { EnvelopeTemplateList, EnvelopeTemplatePage } from './manage/envelope-templates';
import { PersonForm, PersonList } from './manage/persons';
import { WebhookForm, WebhookList } from './manage/webhooks';
import { AccountSettings } from './screens/account-settings';
import { ApiKeys } from './screens/api-keys';
import { Brands } from './screens/brands';
import { BundleList } from './screens/bundle-list';
import { BundlePage } from './screens/bundle-page/bundle-page';
import { Passkeys } from './screens/passkeys';
import { SecurityLog } from './screens/security-log';
import { Send } from './screens/send';
import { SendEditor } from './screens/send-editor';
import { Users } from './screens/users';

export interface TScreenProps {
  api: TConsoleApi;
  session: TSession;
  /** The session ended under the screen (a 401): back to signing in, saying why. */
  onSessionEnded: () => void;
  /** The path's captured groups, in order. */
  params: string[];
}

export interface TRoute {
  path: RegExp;
  screen: (props: TScreenProps) => JSX.Element;
  /** In the main menu, under this word (`common` words' key) at this address; admins only if so marked. */
  menu?: { word: string; href: string; adminOnly?: boolean };
}

export const ROUTES: TRoute[] = [
  {
    path: /^\/console\/?$/,
    screen: (p) => <BundleList api={p.api} onSessionEnded={p.onSessionEnded} />,
    menu: { word: 'shell.bundles', href: '/console/' },
  },
  {
    path: /^\/console\/send\/?$/,
    screen: (p) => <Send {...p} />,
    menu: { word: 'send.menu', href: '/console/send' },
  },
  { path: /^\/console\/send\/([A-Za-z0-9_-]{1,64})\/?$/, screen: (p) => <SendEditor {...p} /> },
  // Manage: templates (document and envelope), Persons, webhooks (docs/console-manage.md).
  {
    // One menu entry for both kinds of templates: the screens link to each other.
    path: /^\/console\/(templates|envelope-templates)(?:\/([^/]+))?\/?$/,
    screen: (p) => {
      const [kind, id] = p.params;
      const own = { ...p, params: id ? [id] : [] };
      if (kind === 'templates') return id ? <DocTemplatePage {...own} /> : <DocTemplateList {...own} />;
      return id ? <EnvelopeTemplatePage {...own} /> : <EnvelopeTemplateList {...own} />;
    },
    menu: { word: 'templates.menu', href: '/console/templates' },
  },
  {
    path: /^\/console\/persons(?:\/([^/]+))?\/?$/,
    screen: (p) => (p.params[0] ? <PersonForm {...p} /> : <PersonList {...p} />),
    menu: { word: 'persons.menu', href: '/console/persons' },
  },
  {
    path: /^\/console\/webhooks(?:\/([^/]+))?\/?$/,
    screen: (p) => (p.params[0] ? <WebhookForm {...p} /> : <WebhookList {...p} />),
    menu: { word: 'webhooks.menu', href: '/console/webhooks' },
  },
  {
    path: /^\/console\/account\/passkeys\/?$/,
    screen: (p) => <Passkeys {...p} />,
    menu: { word: 'passkeys.menu', href: '/console/account/passkeys' },
  },
  { path: /^\/console\/bundles\/([^/]+)\/?$/, screen: (p) => <BundlePage {...p} /> },
  {
    path: /^\/console\/api-keys\/?$/,
    screen: ApiKeys,
    menu: { word: 'settings.menu.keys', href: '/console/api-keys' },
  },
  {
    path: /^\/console\/brands\/?$/,
    screen: Brands,
    menu: { word: 'settings.menu.brands', href: '/console/brands' },
  },
  {
    path: /^\/console\/settings\/?$/,
    screen: AccountSettings,
    menu: { word: 'settings.menu.account', href: '/console/settings' },
  },
  {
    path: /^\/console\/users\/?$/,
    screen: Users,
    menu: { word: 'people.menu', href: '/console/users', adminOnly: true },
  },
  {
    path: /^\/console\/security-log\/?$/,
    screen: SecurityLog,
    menu: { word: 'securityLog.menu', href: '/console/security-log', adminOnly: true },
  },
];

/** The route for a path and its captured groups; undefined when no screen has that path. */
export function routeOf(path: string): { route: TRoute; params: string[] } | undefined {
  for (const route of ROUTES) {
    const m = route.path.exec(path);
    if (m) return { route, params: m.slice(1).map((p) => decodeURIComponent(p ?? '')) };
  }
  return undefined;
}
