public enum HeadtrackCommand { public static func main() {} }
