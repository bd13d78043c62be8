// What `lookahead` does when built without the Tools trait (the trait apps
// leave off): its commands need packages an app never resolves, so it says
// how to build it with them.

#if !Tools
import Foundation

@main
enum LookaheadWithoutTools {
    static func main() {
        let message = """
            lookahead: built without the Tools trait, so it has no commands. Build it with the trait:
              swift run --traits Tools lookahead simulate

            """
        FileHandle.standardError.write(Data(message.utf8))
        exit(2)
    }
}
#endif
