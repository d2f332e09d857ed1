// The owner's overrides of what builds from source detect (setBuildSettings): folders are
// relative, '/'-separated and stay inside the upload; commands are single lines run by /bin/sh
// inside the build sandbox (they are the tenant's own code, as the build scripts are). Empty or
// null means "detect it".
import { Errors } from '../../../platform/errors';
import type { HostingRepository } from '../hosting.repository';
import type { BuildSettingsRow } from '../hosting.tables';
import type { BuildSettings } from './detect';

export interface BuildSettingsInput {
  root_directory?: string | null;
  install_command?: string | null;
  build_command?: string | null;
  start_command?: string | null;
  output_directory?: string | null;
}

export interface BuildLimitsView {
  timeout_seconds: number;
  memory_mb: number;
  disk_mb: number;
}

/** Why a folder can't be used, in words for its owner; undefined when it can. */
export function folderProblem(field: string, value: string): string | undefined {
  if (value.startsWith('/')) return `${field} must be relative to the top of the upload, not start with /.`;
  if (value.includes('\\')) return `${field} uses / between folders, not \\.`;
  if (value.split('/').some((part) => part === '..')) return `${field} must stay inside the upload (no ..).`;
  return undefined;
}

const tidyFolder = (v: string | null | undefined) => {
  const t = v?.trim().replace(/^\.\/+/, '').replace(/\/+$/, '') ?? '';
  return t === '' || t === '.' ? null : t;
};
const tidyCommand = (v: string | null | undefined) => (v?.trim() ? v.trim() : null);

export class BuildSettingsService {
  constructor(
    private readonly repo: HostingRepository,
    private readonly limits: BuildLimitsView,
  ) {}

  async get(projectId: string) {
    return this.view(await this.repo.buildSettingsOf(projectId));
  }

  async set(projectId: string, input: BuildSettingsInput) {
    const values = {
      rootDirectory: tidyFolder(input.root_directory),
      installCommand: tidyCommand(input.install_command),
      buildCommand: tidyCommand(input.build_command),
      startCommand: tidyCommand(input.start_command),
      outputDirectory: tidyFolder(input.output_directory),
    };
    for (const [field, value] of [['root_directory', values.rootDirectory], ['output_directory', values.outputDirectory]] as const) {
      const problem = value === null ? undefined : folderProblem(field, value);
      if (problem) throw Errors.badRequest(problem);
    }
    return { message: 'Build settings saved; they apply to the next deployment.', settings: this.view(await this.repo.saveBuildSettings(projectId, values)) };
  }

  /** What a build of the project is told (detect.ts), from the stored overrides. */
  async forBuild(projectId: string): Promise<BuildSettings> {
    const row = await this.repo.buildSettingsOf(projectId);
    return {
      rootDirectory: row?.rootDirectory ?? null,
      installCommand: row?.installCommand ?? null,
      buildCommand: row?.buildCommand ?? null,
      startCommand: row?.startCommand ?? null,
      outputDirectory: row?.outputDirectory ?? null,
    };
  }

  private view(row: BuildSettingsRow | undefined) {
    return {
      root_directory: row?.rootDirectory ?? null,
      install_command: row?.installCommand ?? null,
      build_command: row?.buildCommand ?? null,
      start_command: row?.startCommand ?? null,
      output_directory: row?.outputDirectory ?? null,
      limits: this.limits,
    };
  }
}
