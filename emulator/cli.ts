#!/usr/bin/env node
/**
 * `hosting-emulator`: checks the Node.js version first (the server needs `node:sqlite`), then
 * serves the sandbox API (serve.ts).
 */
import { requireNode } from "../api/node-version";

requireNode("hosting-emulator");
require("./serve");
