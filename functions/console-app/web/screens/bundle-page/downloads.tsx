// The bundle's files once the API serves them (GET /bundles/{id}/files/): the final documents
// (each with its audit page), the signers' attachments and Certificates of Evidence. Their links
// are signed and short-lived, so the page itself holds no secret beyond the session, and asks for
// fresh links before the ones shown run out. The links point at the file store, another origin,
// where browsers ignore `download`: they open in a new tab, so the page and its live status stay.
import type { TBundle, TFile } from '../../bundle-api';
import { useWords } from '../../words';

const ORDER: TFile['kind'][] = ['final', 'certificate', 'attachment', 'interim', 'original'];

export function Downloads(props: { bundle: TBundle; files: TFile[] | undefined }) {
  const { t } = useWords();
  const signer = (id: string | undefined) => props.bundle.packets.find((p) => p.id === id)?.name;
  const files = [...(props.files ?? [])].sort((a, b) => ORDER.indexOf(a.kind) - ORDER.indexOf(b.kind));
  return (
    <section class="bundle-section" aria-labelledby="downloads-heading">
      <h2 id="downloads-heading">{t('bundle.downloads.heading')}</h2>
      {files.length === 0 ? (
        <p>{t(props.bundle.status === 'co' ? 'bundle.downloads.preparing' : 'bundle.downloads.later')}</p>
      ) : (
        <ul class="downloads">
          {files.map((f) => (
            <li key={`${f.kind}:${f.doc_key}`}>
              <a href={f.file_url} download target="_blank" rel="noopener noreferrer">
                {f.kind === 'certificate'
                  ? t('bundle.downloads.certificate', { name: signer(f.packet_id) ?? f.doc_key })
                  : f.kind === 'final'
                    ? t('bundle.downloads.final', { name: f.name })
                    : t(`bundle.downloads.${f.kind}`, { name: f.name })}
              </a>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
