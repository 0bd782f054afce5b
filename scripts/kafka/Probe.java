// Probe asks a Kafka broker for its cluster metadata with the Kafka admin
// client, so scripts/kafka.sh start knows the broker serves requests, not just
// that its port is open. Run as a single-file source program:
//   java -cp '.kafka/libs/*' scripts/kafka/Probe.java 127.0.0.1:9092
// Exit 0 and one line "ok <cluster id> <brokers>" when it answers within the
// timeout, 1 otherwise.
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterResult;

public class Probe {
    public static void main(String[] args) throws Exception {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, args[0]);
        p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "3000");
        p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "4000");
        try (Admin admin = Admin.create(p)) {
            DescribeClusterResult r = admin.describeCluster();
            String id = r.clusterId().get(5, TimeUnit.SECONDS);
            int n = r.nodes().get(5, TimeUnit.SECONDS).size();
            if (n < 1) {
                System.err.println("no brokers in metadata yet");
                System.exit(1);
            }
            System.out.println("ok " + id + " " + n);
        } catch (Exception e) {
            System.err.println("metadata request failed: " + e);
            System.exit(1);
        }
    }
}
