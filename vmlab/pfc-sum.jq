# Sums over the `tagger -j pfc show` documents of a lab's nodes (an array):
# what report.sh prints. Lossless drops count buffer and queue drops of the
# lossless priorities; they must stay 0. Packets lost because the link
# they were queued for failed are counted apart (failed_link_losses).
def lossless: [.[] | .ports[]? | .prios[] | select(.lossless)];
def lossy: [.[] | .ports[]? | .prios[] | select(.lossless | not)];
{
  nodes: length,
  backend: ([.[] | .backend] | unique),
  pauses_sent: ([lossless[] | .pfc_tx] | add // 0),
  resumes_sent: ([lossless[] | .pfc_tx_resume] | add // 0),
  pauses_received: ([lossless[] | .pfc_rx] | add // 0),
  xoff_crossings: ([lossless[] | .xoff_crossings] | add // 0),
  paused_ms: ([lossless[] | .paused_ms] | add // 0 | round),
  lossless_drops: ([lossless[] | .drops + .queue_drops + .watchdog_drops] | add // 0),
  lossy_drops: ([lossy[] | .drops + .queue_drops] | add // 0),
  failed_link_losses: ([.[] | .ports[]? | .prios[] | .failure_drops // 0] | add // 0),
  watchdog_events: ([.[] | .watchdog.events // 0] | add // 0),
  paused_with_packets: [.[] | .node as $n | .ports[]? | .name as $p | .prios[] |
    select(.lossless and .paused and .queue_packets > 0) |
    "\($n):\($p)/\(.prio)=\(.queue_packets)"]
}
