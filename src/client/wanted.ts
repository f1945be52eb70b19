// Apart from the subscription code of either era (both chunks loaded on demand) that reads it, so neither drags
// the other in.
import type { JsonRpcNotification } from '../transport/types'
import type { ListenFilter } from './types'
import { covers } from './covers'

/** Whether a notification is of a type the filter asked for (and, when known, the server honoured). */
export function wanted(message: JsonRpcNotification, filter: ListenFilter): boolean {
  const params = message.params ?? {}
  switch (message.method) {
    case 'notifications/tools/list_changed':
      return !!filter.toolsListChanged
    case 'notifications/prompts/list_changed':
      return !!filter.promptsListChanged
    case 'notifications/resources/list_changed':
      return !!filter.resourcesListChanged
    case 'notifications/resources/updated': {
      // The spec lets the server report a sub-resource of a subscribed URI.
      const uri = String(params.uri)
      return !!filter.resourceSubscriptions?.some((s) => covers(s, uri))
    }
    case 'notifications/tasks':
      return !!filter.taskIds?.includes(String(params.taskId))
    default:
      return false
  }
}
