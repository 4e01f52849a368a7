// What a benchmark ran on: reported with every result, since figures only compare on one machine.
import { cpus, loadavg, totalmem } from 'node:os';

/** The machine a benchmark ran on. */
export interface MachineInfo {
  /** CPU model of the first core. */
  cpuModel: string;
  /** Logical CPUs. */
  cpus: number;
  totalMemoryBytes: number;
  /** Node.js version, e.g. `v20.20.2`. */
  node: string;
  platform: string;
  arch: string;
  /** 1, 5 and 15 minute load averages when the run ended (0s where the OS has none). */
  loadAverage: number[];
}

export function describeMachine(): MachineInfo {
  const cpu = cpus();
  return {
    cpuModel: cpu[0]?.model.trim() ?? 'unknown',
    cpus: cpu.length,
    totalMemoryBytes: totalmem(),
    node: process.version,
    platform: process.platform,
    arch: process.arch,
    loadAverage: loadavg().map((v) => Math.round(v * 100) / 100),
  };
}
