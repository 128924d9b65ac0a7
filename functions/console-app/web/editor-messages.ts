// What the draft's editor page tells the console that frames it (the prepare_url page's
// contract): `parent.postMessage({source: "esign-editor", event, bundle_id}, <parent origin>)`.

export interface TEditorMessage {
  source: 'esign-editor';
  event: 'ready' | 'saved' | 'sent' | 'closed';
  bundle_id: string;
}

const EVENTS = new Set(['ready', 'saved', 'sent', 'closed']);

/** The editor's message, when `data` is one about `bundleId`; undefined for anything else. */
export function editorMessage(data: unknown, bundleId: string): TEditorMessage | undefined {
  if (!data || typeof data !== 'object') return undefined;
  const m = data as Record<string, unknown>;
  if (m.source !== 'esign-editor' || m.bundle_id !== bundleId || !EVENTS.has(String(m.event)))
    return undefined;
  return m as unknown as TEditorMessage;
}
