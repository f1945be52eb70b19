// Binds an HTTP server to loopback and turns the usual failures into errors that say which server and why.

/** Listens on 127.0.0.1:`port` (0 = ephemeral) and resolves with the bound port. */
export function listenOnLoopback(server, port, label) {
  return new Promise((resolve, reject) => {
    const onError = (error) => {
      server.off('listening', onListening)
      const why =
        error.code === 'EADDRINUSE'
          ? `port ${port} is busy (EADDRINUSE)`
          : error.code === 'EACCES'
            ? `port ${port} needs privileges (EACCES)`
            : error.message
      reject(new Error(`${label} could not listen on 127.0.0.1:${port}: ${why}`, { cause: error }))
    }
    const onListening = () => {
      server.off('error', onError)
      resolve(server.address().port)
    }
    server.once('error', onError)
    server.once('listening', onListening)
    server.listen(port, '127.0.0.1')
  })
}

/**
 * Closes `server`. Streams the servers ended themselves get a moment to flush their last bytes; whatever is
 * still open after `graceMs` (a client's open stream, a keep-alive socket) is cut, so close() cannot hang.
 */
export function closeServer(server, graceMs = 500) {
  return new Promise((resolve) => {
    if (!server.listening) return resolve()
    // Connections turn idle (keep-alive) as their last response ends; close each as soon as it does.
    const sweep = setInterval(() => server.closeIdleConnections(), 10)
    const cut = setTimeout(() => server.closeAllConnections(), graceMs)
    server.close(() => {
      clearInterval(sweep)
      clearTimeout(cut)
      resolve()
    })
    server.closeIdleConnections()
  })
}
