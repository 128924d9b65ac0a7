import { installDomMatrixShim } from './dom-matrix-shim';

export type TPdfjs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');

let loading: Promise<TPdfjs> | undefined;

/**
 * pdf.js, loaded on first use: it is most of the size of any bundle that includes it, and only
 * documents with auto placements need it. The legacy build, because the modern one needs
 * Node 22 APIs (Promise.withResolvers and others) that Node 20 lacks.
 */
export function loadPdfjs(): Promise<TPdfjs> {
  loading ??= load();
  return loading;
}

async function load(): Promise<TPdfjs> {
  installDomMatrixShim();
  // pdf.js runs its parser in a worker, or in-process when handed the worker module on
  // globalThis.pdfjsWorker. Otherwise it would import the worker by a path computed at run
  // time, which a bundle does not contain.
  const worker = await import('pdfjs-dist/legacy/build/pdf.worker.mjs');
  Reflect.set(globalThis, 'pdfjsWorker', worker);
  return import('pdfjs-dist/legacy/build/pdf.mjs');
}
