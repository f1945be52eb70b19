// `npm run build`: ships nanomcp/apps/sandbox.html as it is (a static file, no build step of its own) in dist/apps/.
import { copyFileSync, mkdirSync } from 'node:fs'

mkdirSync('dist/apps', { recursive: true })
copyFileSync('src/apps/sandbox.html', 'dist/apps/sandbox.html')
