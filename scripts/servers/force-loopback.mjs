// Preload (`node --import`) for servers that cannot be told which interface to bind, such as
// mcp-server-everything (`app.listen(PORT)` binds every interface). A listen without a host gets 127.0.0.1,
// and the bound port is reported to the parent over IPC, so the child can be started on port 0.
import net from 'node:net'

const listen = net.Server.prototype.listen

function withLoopback(args) {
  const [first] = args
  if (args.length === 0 || typeof first === 'function') return [0, '127.0.0.1', ...args]
  if (typeof first === 'number' || (typeof first === 'string' && /^\d+$/.test(first))) {
    return typeof args[1] === 'string' ? args : [first, '127.0.0.1', ...args.slice(1)]
  }
  if (first && typeof first === 'object' && !('path' in first) && !('fd' in first) && !('_handle' in first)) {
    return first.host === undefined ? [{ ...first, host: '127.0.0.1' }, ...args.slice(1)] : args
  }
  return args
}

net.Server.prototype.listen = function (...args) {
  this.once('listening', () => {
    const address = this.address()
    if (address && typeof address === 'object') {
      process.send?.({ type: 'listening', port: address.port, host: address.address })
    }
  })
  return listen.apply(this, withLoopback(args))
}

// With an IPC channel the parent is the owner: when it goes away, so does this server.
if (process.send) process.on('disconnect', () => process.exit(0))
