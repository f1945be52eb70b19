/** The revision nanomcp speaks first: stateless, every request describes itself in `_meta`. */
export const VERSION = '2026-07-28'

/** Legacy revisions nanomcp can fall back to, newest first. */
export const LEGACY_VERSIONS: readonly string[] = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05']

/** Reported as `clientInfo.version` unless the app gives its own. Kept in sync with package.json by a test. */
export const PACKAGE_VERSION = '0.1.0'
