// Real-network drivers: the demo and the real replay.
#if Tools
import Lookahead
#endif
