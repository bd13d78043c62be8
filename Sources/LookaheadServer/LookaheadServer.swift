// The feed server: see FeedServer.
import Hummingbird
