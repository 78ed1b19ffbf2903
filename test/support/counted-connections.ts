// A TCP front for a test server that counts the connections clients open through it, to tell a
// request that took an open connection from one that opened its own (warm-connection.ts).
// `silent: true` accepts connections and never answers (a server that hangs).
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

export async function countConnections(target: { port: number } | { silent: true }): Promise<CountedConnections> {
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
    socket.pipe(upstream);
    upstream.pipe(socket);
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
