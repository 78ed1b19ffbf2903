// A TCP front for a test server that counts the connections clients open through it, to tell a
// request that took an open connection from one that opened its own (warm-connection.ts).
// `silent: true` accepts connections and never answers (a server that hangs). `forgetIdleAfterMs`
// is a NAT that forgets an idle flow without telling either end (Azure's outbound NAT after 4
// minutes): a connection that carried nothing either way for that long carries nothing more, and
// stays open, so a request written onto it is never answered.
import { type AddressInfo, connect, createServer, type Socket } from "node:net";

export interface CountedConnections {
  /** http://127.0.0.1:<port> of the front */
  url: string;
  /** connections accepted so far */
  readonly accepted: number;
  /** of those, the ones the client has closed */
  readonly closed: number;
  stop(): Promise<void>;
}

export async function countConnections(target: { port: number; forgetIdleAfterMs?: number } | { silent: true }): Promise<CountedConnections> {
  let accepted = 0;
  let closed = 0;
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    accepted++;
    sockets.add(socket);
    socket.on("close", () => (closed++, sockets.delete(socket)));
    socket.on("error", () => {});
    if ("silent" in target) return;
    const upstream = connect(target.port, "127.0.0.1");
    sockets.add(upstream);
    upstream.on("error", () => socket.destroy());
    socket.on("close", () => upstream.destroy());
    upstream.on("close", () => socket.destroy());
    const forgetAfter = target.forgetIdleAfterMs;
    if (forgetAfter === undefined) {
      socket.pipe(upstream);
      upstream.pipe(socket);
      return;
    }
    let last = Date.now();
    let forgotten = false;
    const carry = (to: Socket) => (chunk: Buffer) => {
      if (!forgotten && Date.now() - last >= forgetAfter) forgotten = true;
      if (forgotten) return;
      last = Date.now();
      to.write(chunk);
    };
    socket.on("data", carry(upstream));
    upstream.on("data", carry(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get accepted() {
      return accepted;
    },
    get closed() {
      return closed;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
