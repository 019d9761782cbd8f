/**
 * The page the Stately bridge serves: the Stately inspector in a frame, fed
 * with the messages of the bridge's WebSocket. Messages wait (all of them)
 * until the inspector in the frame says it is ready.
 *
 * @example
 * response.end(statelyBridgePage('https://stately.ai/inspect'));
 */
export function statelyBridgePage(inspectorUrl: string): string {
  const frameUrl = JSON.stringify(inspectorUrl).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>agentchart — Stately inspector</title>
  <link rel="icon" href="data:,">
  <style>* { margin: 0; padding: 0; } html, body { height: 100%; } iframe { width: 100%; height: 100%; border: none; }</style>
</head>
<body>
  <iframe id="inspector" title="Stately inspector"></iframe>
  <script>
    const frame = document.getElementById('inspector');
    const waiting = [];
    let ready = false;
    window.addEventListener('message', (event) => {
      if (event.source !== frame.contentWindow || !event.data || event.data.type !== '@statelyai.connected') return;
      ready = true;
      for (const message of waiting.splice(0)) frame.contentWindow.postMessage(message, '*');
    });
    frame.src = ${frameUrl};
    const socket = new WebSocket('ws://' + location.host);
    socket.onmessage = (event) => {
      const message = JSON.parse(event.data);
      if (ready) frame.contentWindow.postMessage(message, '*');
      else waiting.push(message);
    };
  </script>
</body>
</html>
`;
}
