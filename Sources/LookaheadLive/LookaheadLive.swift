// Real-network drivers: the demo and the real replay.
import Lookahead
