#!/usr/bin/env node
// The embedded modern and legacy servers in a process of their own, so their work (an McpServer per request)
// never shares a thread with the client being timed. Prints the servers JSON; ends when stdin closes.
import { startServers } from '../servers/start.mjs'

const { servers, stop } = await startServers({ only: ['modern', 'legacy'] })
console.log(JSON.stringify(servers))
const end = () => stop().then(() => process.exit(0))
process.stdin.on('end', end).resume()
process.on('SIGTERM', end)
