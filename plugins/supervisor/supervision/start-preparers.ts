/**
 * The before-start extension point: other plugins (onboarding's setup hooks) prepare a service
 * before each launch. Preparers run in the order they were added; a throw aborts the launch.
 */
import type { ProcessDescriptor, StartPreparer } from '../../../sdk/index.js';

/** The preparers of one supervisor. */
export class StartPreparers {
  private readonly preparers = new Set<StartPreparer>();

  add(preparer: StartPreparer): () => void {
    this.preparers.add(preparer);
    return () => this.preparers.delete(preparer);
  }

  get size(): number {
    return this.preparers.size;
  }

  async run(process: ProcessDescriptor): Promise<void> {
    for (const preparer of [...this.preparers]) await preparer(process);
  }
}
