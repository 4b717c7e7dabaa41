/**
 * `ctx.exposition` of one plugin: families are declared under the plugin's name during
 * register only, so the set of series is known before the first scrape and one plugin cannot
 * create (or overwrite) another's.
 */
import type {
  Exposition,
  ExpositionCounter,
  ExpositionFamilyDefinition,
  ExpositionGauge,
  ExpositionHistogram,
  ExpositionHistogramDefinition,
  ExpositionText,
} from '../../sdk/exposition.js';
import type { ExpositionRegistry } from '../metrics/exposition-registry.js';

/** The facade a plugin's context hands out. */
export class PluginExposition implements Exposition {
  constructor(
    private readonly registry: ExpositionRegistry,
    private readonly owner: string,
    private readonly assertOpen: (call: string) => void,
  ) {}

  counter<L extends string = never>(
    definition: ExpositionFamilyDefinition<L>,
  ): ExpositionCounter<L> {
    this.assertOpen('exposition.counter');
    return this.registry.counter(this.owner, definition);
  }

  gauge<L extends string = never>(definition: ExpositionFamilyDefinition<L>): ExpositionGauge<L> {
    this.assertOpen('exposition.gauge');
    return this.registry.gauge(this.owner, definition);
  }

  histogram<L extends string = never>(
    definition: ExpositionHistogramDefinition<L>,
  ): ExpositionHistogram<L> {
    this.assertOpen('exposition.histogram');
    return this.registry.histogram(this.owner, definition);
  }

  beforeScrape(hook: (signal: AbortSignal) => Promise<void> | void): void {
    this.assertOpen('exposition.beforeScrape');
    this.registry.beforeScrape(this.owner, hook);
  }

  render(accept: string | undefined): Promise<ExpositionText> {
    return this.registry.render(accept);
  }
}
