// The action's entry point (dist/index.js).
import { main } from './main.js'

await main()
