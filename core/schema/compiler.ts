/**
 * Validators per schema (TypeBox's interpreter for the first checks, then TypeCompiler), with
 * TypeBox's coercion for query strings and defaults applied before the check. The first error
 * names the field.
 */
import type { TSchema } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import type { ValueError } from '@sinclair/typebox/errors';
import { Value } from '@sinclair/typebox/value';
import { pointerToField } from '../../sdk/schema.js';
import { registerFormats } from './formats.js';

export { pointerToField };

/** Where a failing value came from. */
export type InputPart = 'body' | 'query' | 'params' | 'response' | 'config';

/** A failed validation: the field path (dotted) and a message for people. */
export interface ValidationFailure {
  readonly field: string;
  readonly message: string;
}

/** How {@link CompiledSchema.parse} treats its input. */
export interface ParseOptions {
  /** Coerce strings from a URL to the schema's types. */
  readonly coerce?: boolean;
  /** The input was made for this call and may be changed in place (no copy is taken). */
  readonly owned?: boolean;
}

/**
 * Checks made by TypeBox's interpreter before a schema is compiled. Compiling builds and
 * compiles a function per schema (the supervisor's config section: 7-13 ms of a boot on a loaded
 * 2-core machine) and pays off only for a schema checked again and again; many are checked once
 * (a plugin's config section at boot) or a few times (a route used now and then).
 */
const INTERPRETED_CHECKS = 2;

/** A validator for one schema, compiled once it is used more than a couple of times. */
export class CompiledSchema<T = unknown> {
  private compiled: TypeCheck<TSchema> | undefined;
  private interpreted = 0;

  constructor(readonly schema: TSchema) {
    registerFormats();
  }

  /**
   * Compiled on first use: a host registers a few hundred schemas (routes, streams, config
   * sections, response checks) of which a running stack exercises a handful, and each compiled
   * check keeps its generated source and code.
   */
  private get check(): TypeCheck<TSchema> {
    return (this.compiled ??= TypeCompiler.Compile(this.schema));
  }

  /** Whether the value passes: interpreted for the first few checks, compiled after. */
  private passes(value: unknown): boolean {
    if (this.compiled === undefined && this.interpreted < INTERPRETED_CHECKS) {
      this.interpreted += 1;
      return Value.Check(this.schema, value);
    }
    return this.check.Check(value);
  }

  /** The first error of a value that failed (the compiled check's, once there is one). */
  private firstErrorOf(value: unknown): ValueError | undefined {
    return (this.compiled?.Errors(value) ?? Value.Errors(this.schema, value)).First();
  }

  /**
   * Apply defaults (and, for strings from a URL, type coercion), then check. Returns the value
   * ready for the handler, or the first failure.
   */
  parse(
    input: unknown,
    options: ParseOptions = {},
  ): { ok: true; value: T } | { ok: false; failure: ValidationFailure } {
    // Coercion and defaults write into the value: a copy, unless the caller made it for this call.
    let value: unknown = input === undefined || options.owned === true ? input : Value.Clone(input);
    if (options.coerce === true) value = Value.Convert(this.schema, value);
    value = Value.Default(this.schema, value);
    if (this.passes(value)) return { ok: true, value: value as T };
    const first = this.firstErrorOf(value);
    return {
      ok: false,
      failure: {
        field: pointerToField(first?.path ?? ''),
        message: describeFailure(first),
      },
    };
  }

  /** Check without defaults or coercion (responses). */
  firstError(value: unknown): ValidationFailure | undefined {
    if (this.passes(value)) return undefined;
    const first = this.firstErrorOf(value);
    return { field: pointerToField(first?.path ?? ''), message: describeFailure(first) };
  }
}

/** TypeBox's message, except where it names an internal kind instead of what is allowed. */
function describeFailure(error: ValueError | undefined): string {
  if (error === undefined) return 'Invalid value';
  const allowed = (error.schema as { enum?: unknown }).enum;
  if (Array.isArray(allowed)) return `Expected one of: ${allowed.map(String).join(', ')}`;
  return error.message;
}

const cache = new WeakMap<TSchema, CompiledSchema>();

/** Compile a schema once; the same schema object returns the same validator. */
export function compileSchema<T = unknown>(schema: TSchema): CompiledSchema<T> {
  let compiled = cache.get(schema);
  if (compiled === undefined) {
    compiled = new CompiledSchema(schema);
    cache.set(schema, compiled);
  }
  return compiled as CompiledSchema<T>;
}
