// The two kinds of templates side by side: a document template is one PDF with its roles and
// fields; an envelope template puts document templates together (and may have a portal link).
import { useWords } from '../words';

/** The two lists' links; `current` marks the list on screen (none on a template's own page). */
export function TemplatesNav(props: { current?: 'documents' | 'envelopes' }) {
  const { t } = useWords();
  const link = (kind: 'documents' | 'envelopes', href: string, word: string) => (
    <a href={href} aria-current={props.current === kind ? 'page' : undefined}>
      {t(word)}
    </a>
  );
  return (
    <nav class="subnav" aria-label={t('templates.kinds')}>
      {link('documents', '/console/templates', 'templates.documents')}
      {link('envelopes', '/console/envelope-templates', 'templates.envelopes')}
    </nav>
  );
}
