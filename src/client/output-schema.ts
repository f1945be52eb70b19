// Checks a tool's structuredContent against its outputSchema (spec: clients SHOULD). The validator,
// @cfworker/json-schema, interprets schemas (no eval, no new Function: works under a strict CSP). This module
// is only ever imported dynamically (helpers.ts, when a tool with an outputSchema is called), so it, its error
// class and the validator form one chunk that apps which never meet such a tool never download.
import { Validator } from '@cfworker/json-schema'
import { OutputSchemaError } from '../errors/output-schema-error'

type Json = Record<string, unknown>

const DRAFTS: Record<string, '4' | '7' | '2019-09' | '2020-12'> = {
  'http://json-schema.org/draft-04/schema#': '4',
  'http://json-schema.org/draft-07/schema#': '7',
  'https://json-schema.org/draft/2019-09/schema': '2019-09',
}

/** Resolves when `result` fits `tool.outputSchema`; rejects with OutputSchemaError otherwise. */
export async function checkOutput(tool: { name: string; outputSchema?: Json }, result: Json): Promise<void> {
  const schema = tool.outputSchema
  // An isError result reports a failure in `content`; the schema describes successful output only.
  if (!schema || result.isError === true) return
  if (result.structuredContent === undefined) throw new OutputSchemaError(tool.name, result, [{ instanceLocation: '#', keywordLocation: '#', error: 'structuredContent is missing' }])
  // Spec: 2020-12 unless the schema names its dialect with $schema.
  const draft = DRAFTS[String(schema.$schema).replace(/^https:\/\/json-schema\.org\/draft-0/, 'http://json-schema.org/draft-0')] ?? '2020-12'
  const { valid, errors } = new Validator(schema, draft, false).validate(result.structuredContent)
  if (!valid) throw new OutputSchemaError(tool.name, result, errors.map(({ instanceLocation, keywordLocation, error }) => ({ instanceLocation, keywordLocation, error })))
}
