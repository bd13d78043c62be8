// The HTTP loader: see HTTPLoader.
import AsyncHTTPClient
