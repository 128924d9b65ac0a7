// Previous and next page of a list the API pages (X-BlueInk-Pagination).
import { useWords } from '../words';

/** A pager for a list whose pages the API counts. */
export function Pager(props: { page: number; pages: number; label: string; onPage: (page: number) => void }) {
  const { t } = useWords();
  if (props.pages <= 1) return null;
  return (
    <nav class="pager" aria-label={props.label}>
      <button
        type="button"
        class="secondary"
        disabled={props.page <= 1}
        onClick={() => props.onPage(props.page - 1)}
      >
        {t('manage.previous')}
      </button>
      <span aria-live="polite">{t('manage.pageOf', { page: props.page, pages: props.pages })}</span>
      <button
        type="button"
        class="secondary"
        disabled={props.page >= props.pages}
        onClick={() => props.onPage(props.page + 1)}
      >
        {t('manage.next')}
      </button>
    </nav>
  );
}
