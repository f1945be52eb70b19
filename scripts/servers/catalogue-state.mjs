// The part of the catalogue that changes at run time. One state per server scope, kept outside any McpServer
// instance: the modern server builds a new McpServer per request and the legacy ones one per session, and all
// of them must agree on which tools exist and what the readme says.

export const README_URI = 'nanomcp://notes/readme'

export function createCatalogueState() {
  let extras = []
  let nextExtra = 1
  let removed = new Set()
  let readmeRevision = 0

  return {
    /** Names of the tools added at run time, oldest first. */
    extraTools: () => [...extras],
    isRemoved: (name) => removed.has(name),
    readmeRevision: () => readmeRevision,
    readmeText: () =>
      readmeRevision === 0
        ? 'nanomcp test server readme (revision 0)'
        : `nanomcp test server readme (revision ${readmeRevision}, touched)`,

    addTool() {
      const name = `extra_${nextExtra++}`
      extras.push(name)
      return name
    },

    /**
     * Removes `name` (a run-time tool or a catalogue tool), or the newest run-time tool when no name is given.
     * Returns the removed name, or undefined when there was nothing to remove.
     */
    removeTool(name, isCatalogueTool) {
      if (name === undefined) return extras.pop()
      if (extras.includes(name)) {
        extras = extras.filter((n) => n !== name)
        return name
      }
      if (isCatalogueTool(name) && !removed.has(name)) {
        removed.add(name)
        return name
      }
      return undefined
    },

    touch() {
      readmeRevision++
      return README_URI
    },

    /** Back to the initial catalogue; says what changed so callers notify only when something did. */
    reset() {
      const toolsChanged = extras.length > 0 || removed.size > 0
      const readmeChanged = readmeRevision !== 0
      extras = []
      nextExtra = 1
      removed = new Set()
      readmeRevision = 0
      return { toolsChanged, readmeChanged }
    },
  }
}
