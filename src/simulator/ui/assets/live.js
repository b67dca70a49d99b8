// The simulator's event stream (/_sim/ui/events, server-sent events), read with fetch rather than
// EventSource so that the control token can travel in its header.

/**
 * Connects and calls `on.message(event, data)` per message, `on.status(text)` when the connection
 * changes, `on.unauthorized()` on a 401 (then it stops: the page asks for the token and connects
 * again). A dropped stream is retried, less often each time (at most every 30 s).
 */
export function connect(token, on) {
  let backoff = 1000;
  const run = async () => {
    try {
      const headers = token() ? { 'x-sim-control-token': token() } : {};
      const res = await fetch('/_sim/ui/events', { headers });
      if (res.status === 401) return on.unauthorized();
      if (!res.ok || !res.body) throw new Error(`events: ${res.status}`);
      on.status('live');
      backoff = 1000;
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let end = buffer.indexOf('\n\n');
        while (end >= 0) {
          dispatch(buffer.slice(0, end), on);
          buffer = buffer.slice(end + 2);
          end = buffer.indexOf('\n\n');
        }
      }
    } catch {}
    on.status('disconnected; reconnecting…');
    setTimeout(run, backoff);
    backoff = Math.min(backoff * 2, 30_000);
  };
  run();
}

function dispatch(block, on) {
  const lines = block.split('\n');
  const event = lines.find((l) => l.startsWith('event: '))?.slice(7);
  const data = lines.find((l) => l.startsWith('data: '))?.slice(6);
  if (event) on.message(event, data === undefined ? {} : JSON.parse(data));
}
