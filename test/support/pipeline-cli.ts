/** The pipeline CLI (`tsx pipeline/build.ts`) run as a child process, as a scheduler runs it. */
import { spawn } from 'node:child_process';
import { readlinkSync } from 'node:fs';
import path from 'node:path';

const CLI = path.resolve('pipeline/build.ts');

export interface CliRun { code: number | null; signal: NodeJS.Signals | null; stderr: string }

/** Runs the CLI; with `killOn`, sends SIGKILL as soon as stderr shows that text. */
export function runCli(args: string[], killOn?: string): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr += chunk;
      if (killOn && stderr.includes(killOn)) child.kill('SIGKILL');
    });
    child.on('close', (code, signal) => resolve({ code, signal, stderr }));
  });
}

/** The build directory name `current` points to. */
export const currentTarget = (dist: string) => path.basename(readlinkSync(path.join(dist, 'current')));
