/** The functions with the most self time in a V8 CPU profile (`--cpu-prof` output). */

export interface CpuProfile {
  readonly nodes: ReadonlyArray<{
    readonly id: number;
    readonly callFrame: { functionName: string; url: string; lineNumber: number };
  }>;
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

export interface SelfTime {
  readonly function: string;
  readonly self_ms: number;
}

export function summarizeProfile(profile: CpuProfile, limit: number): SelfTime[] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const totals = new Map<string, number>();
  profile.samples.forEach((id, index) => {
    const frame = byId.get(id)?.callFrame;
    if (frame === undefined) return;
    const where =
      frame.url === ''
        ? ''
        : ` ${frame.url.split('/').slice(-2).join('/')}:${frame.lineNumber + 1}`;
    const key = `${frame.functionName === '' ? '(anonymous)' : frame.functionName}${where}`;
    totals.set(key, (totals.get(key) ?? 0) + (profile.timeDeltas[index] ?? 0));
  });
  return [...totals.entries()]
    .filter(([key]) => key !== '(idle)')
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([key, micros]) => ({ function: key, self_ms: Math.round(micros / 100) / 10 }));
}
