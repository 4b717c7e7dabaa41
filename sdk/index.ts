/**
 * The stackd sdk: the only import surface for plugins, built-in and third-party.
 * @packageDocumentation
 */
export * from './plugin.js';
export * from './context.js';
export * from './http.js';
export * from './stream.js';
export * from './proxy.js';
export * from './metrics.js';
export * from './exposition.js';
export * from './services.js';
export * from './events.js';
export * from './journal.js';
export * from './tasks.js';
export * from './storage.js';
export * from './config.js';
export * from './config-diff.js';
export * from './logger.js';
export * from './errors.js';
export * from './atomic-file.js';
export * from './schema.js';
export * from './process-blocks.js';
export * from './redaction.js';
export * from './secret-scrubber.js';
export { redactArguments, redactCommandString } from './argument-redaction.js';
export * from './outbound-url.js';
export * from './outbound/client.js';
export {
  OutboundSettings,
  OutboundSettingsError,
  outboundSettingsOf,
  addressRefusal,
  selfAddressOf,
  staticRefusal,
  type ParsedOutboundSettings,
  type SelfAddress,
} from './outbound/policy.js';
export * from './bounded-json.js';
export * from './text-order.js';
export * from './turn-budget.js';
export * from './iso-time.js';
export * from './contracts/authenticator.js';
export * from './contracts/process-supervisor.js';
export * from './contracts/dependency-graph.js';
export * from './contracts/metrics-feed.js';
export * from './contracts/service-catalog.js';
export * from './contracts/notable-events.js';
