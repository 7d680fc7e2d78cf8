"""How the bot reaches the sandbox: in process or over HTTP, through a simulated network,
with injected faults; the updates it is served by long polling or a webhook."""
