/**
 * `hosting-emulator [--port N] [--data FILE] [--host H] [--control-token T] [--log-size N]`: serves
 * the sandbox API. The first line on
 * stdout is `listening on <apiRoot>`, so scripts can wait for it and read the address.
 */
import { parseArgs } from "node:util";
import { startEmulator } from "./index";

const USAGE =
  "usage: hosting-emulator [--port N] [--data FILE] [--host 127.0.0.1] [--control-token T] [--log-size N]";

async function main(): Promise<void> {
  let values: {
    port?: string;
    data?: string;
    host?: string;
    "control-token"?: string;
    "log-size"?: string;
    help?: boolean;
  };
  try {
    ({ values } = parseArgs({
      options: {
        port: { type: "string", short: "p" },
        data: { type: "string", short: "d" },
        host: { type: "string" },
        "control-token": { type: "string" },
        "log-size": { type: "string" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
    }));
  } catch (e) {
    console.error(`${(e as Error).message}\n${USAGE}`);
    process.exit(2);
  }
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const port = values.port === undefined ? 0 : /^\d{1,5}$/.test(values.port) ? Number(values.port) : -1;
  if (port < 0 || port > 65535) {
    console.error(`--port must be an integer from 0 to 65535; got "${values.port}"\n${USAGE}`);
    process.exit(2);
  }
  if (values.data !== undefined && values.data.trim() === "") {
    console.error(
      `--data must name a file; got an empty string (leave --data out to keep state in memory)\n${USAGE}`,
    );
    process.exit(2);
  }
  const logSize = values["log-size"];
  if (logSize !== undefined && !/^[1-9]\d{0,8}$/.test(logSize)) {
    console.error(`--log-size must be a positive integer; got "${logSize}"\n${USAGE}`);
    process.exit(2);
  }
  const emulator = await startEmulator({
    port,
    ...(values.data !== undefined ? { data: values.data } : {}),
    ...(values.host ? { host: values.host } : {}),
    ...(values["control-token"] !== undefined ? { controlToken: values["control-token"] } : {}),
    ...(logSize !== undefined ? { logSize: Number(logSize) } : {}),
  });
  console.log(`listening on ${emulator.url}`);
  const stop = () => {
    emulator.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

main().catch((e) => {
  console.error(`hosting-emulator: ${(e as Error).message}`);
  process.exit(1);
});
