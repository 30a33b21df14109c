/** One line per stage on stderr: stage name, what it produced, elapsed time and the process's CPU time. */
export interface Progress {
  stage<T>(name: string, work: () => Promise<T>, describe?: (result: T) => string): Promise<T>;
  note(message: string): void;
  readonly startedAt: number;
}

export function createProgress(write: (line: string) => void = (line) => process.stderr.write(`${line}\n`)): Progress {
  const startedAt = performance.now();
  return {
    startedAt,
    async stage(name, work, describe) {
      const t0 = performance.now();
      const cpu0 = process.cpuUsage();
      const result = await work();
      const ms = performance.now() - t0;
      // every thread of the process (DuckDB's, the checkers'): on a shared machine the wall time drifts, the CPU time less
      const cpu = process.cpuUsage(cpu0);
      const detail = describe ? ` ${describe(result)}` : '';
      write(`[pipeline] ${name.padEnd(22)}${detail} (${formatMs(ms)}, CPU ${formatMs((cpu.user + cpu.system) / 1000)})`);
      return result;
    },
    note(message) {
      write(`[pipeline] ${message}`);
    },
  };
}

export function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`;
}
