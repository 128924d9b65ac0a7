import type { TMetrics } from '#shared/domain/ports/metrics';

export type TRecordedMetric = {
  name: string;
  by?: Readonly<Record<string, string>>;
  value?: number;
  ms?: number;
};

/** A TMetrics that keeps what it is told, for unit tests of what a use case or worker records. */
export function metricsRecorder() {
  const seen: TRecordedMetric[] = [];
  const metrics: TMetrics = {
    count: (name, by, value = 1) => seen.push({ name, ...(by ? { by } : {}), value }),
    duration: (name, ms, by) => seen.push({ name, ...(by ? { by } : {}), ms }),
  };
  return { seen, metrics };
}

/** EMF objects (as Powertools prints them) → one entry per metric value with its dimensions. */
export function metricsOfEmf(emfs: Record<string, unknown>[]) {
  return emfs.flatMap((emf) => {
    const aws = emf._aws as {
      CloudWatchMetrics: {
        Namespace: string;
        Dimensions: string[][];
        Metrics: { Name: string; Unit: string }[];
      }[];
    };
    return aws.CloudWatchMetrics.flatMap((d) =>
      d.Metrics.map((m) => ({
        namespace: d.Namespace,
        name: m.Name,
        unit: m.Unit,
        value: emf[m.Name] as number | number[],
        dimensions: Object.fromEntries(d.Dimensions.flat().map((k) => [k, emf[k] as string])),
      })),
    );
  });
}
